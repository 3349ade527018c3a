/**
 * A rollup network: the RollupChain behind the rollup_/<prefix>_/devnet_ method table. Before each
 * call it tells the chain its L1 network's head (for the `blocks` L1 acceptance rule); a timer
 * (unref'd, stopped by close()) does the same and runs the chain's clock-driven work when nobody calls.
 */
import type { RpcCall, RpcResponse } from '../rpc/envelope.js';
import type { Network, NetworkEnv } from '../networkTypes.js';
import type { RollupSeed } from '../seed/rollup.js';
import { cachedRollupChain } from '../cache/rollupCache.js';
import { buildRollupChain } from './build.js';
import type { RollupContext } from './context.js';
import type { RollupChain } from './engine/chain.js';
import { rollupMethods } from './methods/index.js';

/** How often the timer runs when the chain has time- or L1-driven work but no block interval. */
const POLL_MS = 1_000;

export class RollupNetwork implements Network {
  readonly kind = 'rollup' as const;
  readonly name: string;
  readonly chainId: string;
  private readonly methods;
  private readonly ctx: RollupContext;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    readonly engine: RollupChain,
    seed: RollupSeed,
    private readonly env: NetworkEnv,
    /** A data directory's keeper: writes the chain after each call and tick, before the call is answered. */
    private readonly kept?: { afterCall(): Promise<void> },
  ) {
    this.name = seed.name;
    this.chainId = seed.chainId;
    this.methods = rollupMethods(seed.prefix);
    this.ctx = { chain: engine, networkName: seed.name };
    const period = seed.blockTimeMs ?? (seed.l1Acceptance.kind === 'manual' ? undefined : POLL_MS);
    if (period !== undefined) {
      this.timer = setInterval(() => {
        this.observeL1()
          .then(() => engine.sync())
          .then(() => this.kept?.afterCall())
          .catch((err: unknown) => {
            if (this.kept !== undefined) console.error(`devgate: ${this.name}: ${err instanceof Error ? err.message : String(err)}`);
          });
      }, period);
      this.timer.unref();
    }
  }

  /** Reads the L1 network's head and hands it to the chain (rule `blocks` only). */
  private async observeL1(): Promise<void> {
    const rule = this.engine.config.l1Acceptance;
    if (rule.kind !== 'blocks' || this.env.l1BlockNumber === undefined) return;
    const head = await this.env.l1BlockNumber(rule.network);
    if (head !== undefined) this.engine.observeL1Head(head);
  }

  async execute(call: RpcCall): Promise<RpcResponse> {
    await this.observeL1().catch(() => {});
    const response = await this.methods.execute(this.ctx, call);
    await this.kept?.afterCall();
    return response;
  }

  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
  }
}

/** Builds the rollup network a seed describes. */
export function createRollupNetwork(seed: RollupSeed, env: NetworkEnv): RollupNetwork {
  return new RollupNetwork(buildRollupChain(seed, env.clock), seed, env);
}

/**
 * The rollup network a seed describes, its chain restored from the cache of built chains when there (env.cacheDir),
 * or kept in the data directory (env.dataDir).
 */
export async function cachedRollupNetwork(seed: RollupSeed, env: NetworkEnv): Promise<RollupNetwork> {
  if (env.dataDir !== undefined) {
    const { dataDirRollupChain } = await import('../eth/engine/persist/dataDir/rollup.js');
    const kept = await dataDirRollupChain(env.dataDir, seed, env.clock, env.cacheDir);
    return new RollupNetwork(kept.chain, seed, env, kept);
  }
  return new RollupNetwork(cachedRollupChain(seed, env.clock, env.cacheDir).chain, seed, env);
}
