/**
 * anvil_reset / hardhat_reset with `forking` (docs/fork.md): which fork a network serves now, and the fork a reset
 * asks for, opened off the writer (the node swaps it in: EthNode.reset). The fork served at start (if any) comes back
 * with a reset without `forking`; a plain network's seeded chain likewise.
 */
import type { EthChainOptions } from '../chain/types.js';
import type { EthSeed } from '../../../seed/eth.js';
import { DevgateError, InvalidArgument } from '../../../errors.js';
import type { ForkBase, ForkOptions } from './forkBase.js';
import type { ForkHistory } from './forkHistory.js';
import type { ForkedChain } from './forkChain.js';

/** What a reset's `forking` asks for: an upstream (default: the fork served now) and a block (default: its latest). */
export interface ForkTarget {
  readonly url?: string;
  readonly blockNumber?: bigint;
}

interface Served {
  readonly fork: ForkBase;
  readonly options: ForkOptions;
}

export class ForkResets {
  private readonly start: Served | undefined;
  private served: Served | undefined;

  constructor(
    private readonly seed: EthSeed,
    private readonly cacheDir: string | undefined,
    private readonly chainOpts: EthChainOptions,
    /** The fork served at start (a seed with `fork`); undefined for a plain network. */
    start: ForkBase | undefined,
  ) {
    const spec = seed.fork;
    this.start =
      start === undefined || spec === undefined
        ? undefined
        : { fork: start, options: { url: spec.url, blockNumber: start.blockNumber, headers: spec.headers, retries: spec.retries } };
    this.served = this.start;
  }

  /** The history of the fork served now (its blocks up to the fork block are the upstream's); undefined on a plain chain. */
  history = (): ForkHistory | undefined => this.served?.fork.history;

  /**
   * Opens the fork `target` names, with the seed's dev accounts funded, changing nothing served: the upstream given
   * (headers and retries are kept only when it is the one served now: an auth header never goes to another host),
   * or the one served now at another block.
   */
  async open(target: ForkTarget): Promise<{ forked: ForkedChain; serve: () => void }> {
    const now = this.served?.options;
    let options: ForkOptions;
    if (target.url === undefined) {
      if (now === undefined)
        throw new InvalidArgument('forking.jsonRpcUrl is missing, and this network is not a fork whose upstream a block number could apply to');
      options = { ...now, blockNumber: target.blockNumber };
    } else {
      const same = now !== undefined && sameUrl(now.url, target.url);
      options = { url: target.url, blockNumber: target.blockNumber, headers: same ? now.headers : undefined, retries: now?.retries ?? this.seed.fork?.retries };
    }
    let forked: ForkedChain;
    try {
      // Loaded on first use, as the fork's modules are at start: a plain network never loads them.
      const { forkedSeedChain } = await import('./forkChain.js');
      forked = await forkedSeedChain(this.seed, this.cacheDir, this.chainOpts, options);
    } catch (err) {
      // An upstream that fails says so (UpstreamError); a URL that is none, or a block the upstream lacks, is the
      // request's bad argument, named.
      if (err instanceof DevgateError) throw err;
      throw new InvalidArgument(`cannot fork ${options.url}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { forked, serve: () => void (this.served = { fork: forked.fork, options }) };
  }

  /** For the node's reset without `forking`: the fork served at start (if any) is served again. */
  serveStart = (): void => {
    this.served = this.start;
  };
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).toString() === new URL(b).toString();
  } catch {
    return false;
  }
}
