/** Builds the networks a gateway serves from their seeds (the types: networkTypes.ts). */
import type { CallOrigin, ConnectionCaller, Network, NetworkConnection, NetworkEnv, NetworkKind } from './networkTypes.js';
import { ethConnection } from './subscriptions/ethConnection.js';
import { cachedEthChain } from './cache/chainCache.js';
import { Miner } from './eth/engine/mining/miner.js';
import { poolAdmission, type PoolSettings } from './eth/engine/mining/send.js';
import { Snapshots } from './eth/engine/control/snapshots.js';
import { Impersonation } from './eth/engine/wallet/impersonation.js';
import { EthFilters } from './subscriptions/ethFilters.js';
import { ethMethods } from './eth/methods/index.js';
import type { EthContext } from './eth/context.js';
import type { RpcCall, RpcResponse } from './rpc/envelope.js';
import type { MethodTable } from './rpc/dispatch.js';
import type { LoadedSeed } from './seed/load.js';
import type { RollupSeed } from './seed/rollup.js';

export type { Network, NetworkEnv, NetworkInfo, NetworkKind } from './networkTypes.js';

class TableNetwork<C> implements Network {
  constructor(
    readonly name: string,
    readonly kind: NetworkKind,
    readonly chainId: string,
    readonly engine: unknown,
    readonly methods: MethodTable<C>,
    private readonly ctx: C,
    private readonly onClose: () => Promise<void> = async () => {},
    private readonly connector?: (push: (text: string) => unknown, caller?: ConnectionCaller) => NetworkConnection,
  ) {}

  connect(push: (text: string) => unknown, caller?: ConnectionCaller): NetworkConnection {
    return this.connector?.(push, caller) ?? { execute: (call, origin) => this.execute(call, origin), close: () => {} };
  }

  execute(call: RpcCall, origin?: CallOrigin): Promise<RpcResponse> {
    // Only the filter methods (their `filter` fact) learn the caller (filters are kept per key): other calls share one context.
    return this.methods.execute(origin !== undefined && this.methods.get(call.method)?.facts?.filter ? { ...this.ctx, origin } : this.ctx, call);
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
      const chainOpts = { safeDepth: seed.safeDepth, finalizedDepth: seed.finalizedDepth };
      // With a data directory the chain is restored from it (built and written there on its first start).
      const stored =
        env.dataDir === undefined
          ? undefined
          : await (await import('./eth/engine/persist/dataDir/seeded.js')).dataDirEthChain(env.dataDir, loaded, env.cacheDir, chainOpts);
      if (seed.fork !== undefined && env.dataDir !== undefined) throw new Error(`network ${seed.name}: a fork cannot use a data directory yet (docs/fork.md)`);
      const forked =
        seed.fork === undefined ? undefined : await (await import('./eth/engine/fork/forkChain.js')).forkedSeedChain(seed, env.cacheDir, chainOpts);
      const chain = stored?.chain ?? forked?.chain ?? (await cachedEthChain(loaded, env.cacheDir, chainOpts)).chain;
      // The gateway's options (CLI, start()) win; else the seed's own mining settings; else automine.
      const fromSeed =
        seed.mining === undefined
          ? undefined
          : {
              automine: seed.mining.automine ?? seed.mining.blockTime === undefined,
              intervalMs: seed.mining.blockTime === undefined ? undefined : Math.round(seed.mining.blockTime * 1000),
            };
      const miner = new Miner(chain, env.clock, env.mining ?? fromSeed, env.limits);
      const impersonation = new Impersonation();
      const kept = stored?.attach(miner, impersonation, env.mining !== undefined);
      // The start's own settings (a mining mode given to it) are stored before anything is served.
      if (kept !== undefined) await chain.writer.run(() => undefined);
      const snapshots = new Snapshots(chain, miner, impersonation, kept?.initial);
      const filters = new EthFilters(chain, env.clock, undefined, env.limits);
      const pool: PoolSettings = { minTip: 0n, allowUnprotected: env.allowUnprotectedTxs === true, txFeeCap: env.txFeeCap ?? 0 };
      const ctx: EthContext = {
        chain,
        networkName: seed.name,
        miner,
        snapshots,
        filters,
        impersonation,
        pool,
        admission: poolAdmission(miner, pool, env.limits),
      };
      const table = ethMethods({ devMethods: env.devMethods });
      // A fork's blocks, transactions, receipts and logs up to its fork block are its upstream's (docs/fork.md).
      if (forked !== undefined) (await import('./eth/methods/forkRoutes.js')).routeForkHistory(table, chain, forked.fork.history);
      if (kept !== undefined) {
        // Controls that do not run on the writer (evm_setAutomine, miner_stop, evm_increaseTime, anvil_impersonateAccount,
        // ...: their `persists` fact) are made durable by an empty writer job (its commit writes what changed) before
        // they are answered.
        const execute = table.execute.bind(table);
        table.execute = async (c, call) => {
          const response = await execute(c, call);
          if (table.get(call.method)?.facts?.persists) await chain.writer.run(() => undefined);
          return response;
        };
      }
      const onClose = async () => {
        miner.close();
        filters.close();
        await chain.writer.idle();
        kept?.detach();
      };
      return new TableNetwork(
        seed.name,
        'eth',
        chain.chainId.toString(10),
        { chain, miner, snapshots, impersonation, pool },
        table,
        ctx,
        onClose,
        (push, caller) => ethConnection(table, ctx, push, caller),
      );
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
