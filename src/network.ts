/** A network served by the gateway: its name, kind and chain id, and how it runs one JSON-RPC call. */
import { cachedEthChain } from './cache/chainCache.js';
import { ethMethods } from './eth/methods/index.js';
import type { EthContext } from './eth/context.js';
import type { RpcCall, RpcResponse } from './rpc/envelope.js';
import type { MethodTable } from './rpc/dispatch.js';
import type { LoadedSeed } from './seed/load.js';
import type { Clock } from './clock.js';
import type { RollupSeed } from './seed/rollup.js';

export type NetworkKind = 'eth' | 'rollup';

/** What the gateway and `start()`'s handle show of a network. */
export interface NetworkInfo {
  readonly name: string;
  readonly kind: NetworkKind;
  /** The chain id: a decimal string for eth networks (`"1"`), the chain's own id for rollups (`"SN_MAIN"`). */
  readonly chainId: string;
}

/** What every network gets from the gateway that runs it. */
export interface NetworkEnv {
  /** devgate's clock: wall time, or a manual clock in tests. */
  readonly clock: Clock;
  /** The head block number of another network of the same gateway (a rollup's L1); undefined if none. */
  readonly l1BlockNumber?: (network: string) => Promise<bigint | undefined>;
  /** Where built chains are cached (see src/cache/chainCache.ts, rollupCache.ts); undefined: every chain is built. */
  readonly cacheDir?: string;
}

export interface Network extends NetworkInfo {
  /** The engine behind the network (EthChain, RollupChain), for programmatic control. */
  readonly engine: unknown;
  /** Runs one validated call; failures come back as error responses. */
  execute(call: RpcCall): Promise<RpcResponse>;
  /** Stops timers and frees what the network holds. */
  close(): Promise<void>;
}

class TableNetwork<C> implements Network {
  constructor(
    readonly name: string,
    readonly kind: NetworkKind,
    readonly chainId: string,
    readonly engine: unknown,
    private readonly methods: MethodTable<C>,
    private readonly ctx: C,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  execute(call: RpcCall): Promise<RpcResponse> {
    return this.methods.execute(this.ctx, call);
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/** Builds the network a seed describes. */
export async function createNetwork(loaded: LoadedSeed, env: NetworkEnv): Promise<Network> {
  const seed = loaded.seed;
  switch (seed.kind) {
    case 'eth': {
      const { chain } = await cachedEthChain(loaded, env.cacheDir, { safeDepth: seed.safeDepth, finalizedDepth: seed.finalizedDepth });
      const ctx: EthContext = { chain, networkName: seed.name };
      return new TableNetwork(seed.name, 'eth', chain.chainId.toString(10), chain, ethMethods(), ctx);
    }
    case 'rollup': {
      // The rollup engine (and @scure/starknet) loads only when a rollup network is served.
      const { cachedRollupNetwork } = await import('./rollup/network.js');
      return cachedRollupNetwork(seed, env);
    }
  }
}

/** Checks that every rollup whose L1 acceptance counts blocks names an eth network of the same gateway. */
export function checkRollupL1Networks(seeds: readonly { kind: string; name: string; l1Acceptance?: RollupSeed['l1Acceptance'] }[]): void {
  for (const s of seeds) {
    const rule = s.kind === 'rollup' ? s.l1Acceptance : undefined;
    if (rule?.kind !== 'blocks') continue;
    const l1 = seeds.find((o) => o.name === rule.network);
    if (l1?.kind !== 'eth') {
      throw new TypeError(`rollup ${JSON.stringify(s.name)}: l1Acceptance.network ${JSON.stringify(rule.network)} is not an eth network of this gateway`);
    }
  }
}
