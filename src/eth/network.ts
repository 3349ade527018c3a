/**
 * An eth network: its chain (from a data directory, the chain cache or its seed), its node (the one door for
 * writes: src/eth/node/), its method table and its connections. Built like the rollup network (src/rollup/network.ts).
 */
import type { CallOrigin, ConnectionCaller, Network, NetworkConnection, NetworkEnv } from '../networkTypes.js';
import { ethConnection } from '../subscriptions/ethConnection.js';
import { cachedEthChain } from '../cache/chainCache.js';
import { Miner, type MinerState } from './engine/mining/miner.js';
import { poolAdmission, type PoolSettings } from './engine/mining/send.js';
import { Snapshots } from './engine/control/snapshots.js';
import { Impersonation } from './engine/wallet/impersonation.js';
import { EthFilters } from '../subscriptions/ethFilters.js';
import { ethMethods } from './methods/index.js';
import type { EthContext } from './context.js';
import type { RpcCall, RpcResponse } from '../rpc/envelope.js';
import type { MethodTable } from '../rpc/dispatch.js';
import type { LoadedSeed } from '../seed/load.js';
import type { EthSeed } from '../seed/eth.js';
import { EthNode } from './node/node.js';
import { ForkResets } from './engine/fork/forkReset.js';
import type { ForkBase } from './engine/fork/forkBase.js';
import type { DataDirChain } from './dataDir.js';
import type { EthChain } from './engine/chain/chain.js';
import { routeForkHistory } from './methods/forkRoutes.js';

export class EthNetwork implements Network {
  readonly kind = 'eth' as const;
  constructor(
    readonly name: string,
    /** The network's node (start()'s handle, dump and load, the rollup's L1 link read it). */
    readonly engine: EthNode,
    readonly methods: MethodTable<EthContext>,
    private readonly ctx: EthContext,
    private readonly filters: EthFilters,
  ) {}

  /** The chain id served now (anvil_reset with `forking` can change it). */
  get chainId(): string {
    return this.engine.chain.chainId.toString(10);
  }

  connect(push: (text: string) => unknown, caller?: ConnectionCaller): NetworkConnection {
    return ethConnection(this.methods, this.ctx, push, caller);
  }

  execute(call: RpcCall, origin?: CallOrigin): Promise<RpcResponse> {
    // Only the filter methods (their `filter` fact) learn the caller (filters are kept per key): other calls share one context.
    return this.methods.execute(origin !== undefined && this.methods.get(call.method)?.facts?.filter ? { ...this.ctx, origin } : this.ctx, call);
  }

  async close(): Promise<void> {
    this.filters.close();
    await this.engine.close();
  }
}

/** The mining settings of a seed: the gateway's options (CLI, start()) win; else the seed's own; else automine. */
function seedMining(seed: EthSeed): { automine: boolean; intervalMs: number | undefined } | undefined {
  if (seed.mining === undefined) return undefined;
  return {
    automine: seed.mining.automine ?? seed.mining.blockTime === undefined,
    intervalMs: seed.mining.blockTime === undefined ? undefined : Math.round(seed.mining.blockTime * 1000),
  };
}

/** Builds the eth network `loaded` describes. */
export async function createEthNetwork(loaded: LoadedSeed & { seed: EthSeed }, env: NetworkEnv): Promise<EthNetwork> {
  const seed = loaded.seed;
  const chainOpts = { safeDepth: seed.safeDepth, finalizedDepth: seed.finalizedDepth };
  // With a data directory the chain is restored from it (built and written there on its first start).
  // A fork keeps its fetched state and local blocks there too (docs/fork.md).
  const stored =
    env.dataDir === undefined
      ? undefined
      : seed.fork !== undefined
        ? await (await import('./forkDataDir.js')).dataDirForkChain(env.dataDir, { ...loaded, seed }, env.cacheDir, chainOpts)
        : await (await import('./dataDir.js')).dataDirEthChain(env.dataDir, loaded, env.cacheDir, chainOpts);
  const forked: { chain: EthChain; fork: ForkBase } | undefined =
    seed.fork === undefined
      ? undefined
      : stored !== undefined && 'fork' in stored
        ? (stored as { chain: EthChain; fork: ForkBase })
        : await (await import('./engine/fork/forkChain.js')).forkedSeedChain(seed, env.cacheDir, chainOpts);
  const chain = stored?.chain ?? forked?.chain ?? (await cachedEthChain(loaded, env.cacheDir, chainOpts)).chain;
  return ethNetworkOn(chain, seed, env, { stored, fork: forked?.fork });
}

/** What a network built on a chain keeps of where that chain came from: a data directory's hooks, a fork. */
interface ChainOrigin {
  readonly stored?: Pick<DataDirChain, 'attach'>;
  readonly fork?: ForkBase;
  /** Mining settings, time and impersonation to start from (an isolated copy takes the shared network's as started). */
  readonly controls?: { readonly miner: MinerState; readonly impersonation: ReturnType<Impersonation['state']> };
}

/**
 * The eth network served on `chain`: its node (miner, snapshots, impersonation, pool rules), filters, fork resets and
 * method table. An isolated copy (src/eth/isolate/) is one of these on a copy-on-write copy of the chain as started.
 */
export async function ethNetworkOn(chain: EthChain, seed: EthSeed, env: NetworkEnv, origin: ChainOrigin = {}): Promise<EthNetwork> {
  const chainOpts = { safeDepth: seed.safeDepth, finalizedDepth: seed.finalizedDepth };
  const miner = new Miner(chain, env.clock, env.mining ?? seedMining(seed), env.limits);
  const impersonation = new Impersonation();
  if (origin.controls !== undefined) {
    miner.restore(origin.controls.miner);
    impersonation.restore(origin.controls.impersonation);
  }
  const kept = origin.stored?.attach(miner, impersonation, env.mining !== undefined);
  const pool: PoolSettings = { minTip: 0n, allowUnprotected: env.allowUnprotectedTxs === true, txFeeCap: env.txFeeCap ?? 0, limits: env.limits };
  const node = new EthNode({
    chain,
    miner,
    snapshots: new Snapshots(chain, miner, impersonation, kept?.initial),
    impersonation,
    pool,
    admission: poolAdmission(miner, pool),
    store: kept?.store,
  });
  // The start's own settings (a mining mode given to it) are stored before anything is served.
  if (kept !== undefined) await node.saveControls();
  const filters = new EthFilters(chain, env.clock, undefined, env.limits);
  // The fork served now: the seed's, or one anvil_reset with `forking` asked for (docs/fork.md).
  const forks = new ForkResets(seed, env.cacheDir, chainOpts, origin.fork);
  const ctx: EthContext = { node, chain, miner, networkName: seed.name, filters, forks };
  const table = ethMethods({ devMethods: env.devMethods });
  // A fork's blocks, transactions, receipts and logs up to its fork block are its upstream's (docs/fork.md).
  routeForkHistory(table, chain, forks.history);
  if (kept !== undefined) {
    // Controls that do not run on the writer (evm_setAutomine, miner_stop, evm_increaseTime, anvil_impersonateAccount,
    // ...: their `persists` fact) are made durable by the node's empty command (its commit writes what changed)
    // before they are answered.
    const execute = table.execute.bind(table);
    table.execute = async (c, call) => {
      const response = await execute(c, call);
      if (table.get(call.method)?.facts?.persists) await node.saveControls();
      return response;
    };
  }
  return new EthNetwork(seed.name, node, table, ctx, filters);
}
