/**
 * A rollup network: the RollupChain behind the rollup_/<prefix>_/devnet_ method table. Before each
 * call it tells the chain its L1 network's head (for the `blocks` L1 acceptance rule); a timer
 * (unref'd, stopped by close()) does the same and runs the chain's clock-driven work when nobody calls.
 */
import { failure, type RpcCall, type RpcResponse } from '../rpc/envelope.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import type { Network, NetworkConnection, NetworkEnv } from '../networkTypes.js';
import { rollupConnection } from '../subscriptions/rollupConnection.js';
import { starknetWsMethods } from '../subscriptions/starknet/methods/index.js';
import type { RollupSeed } from '../seed/rollup.js';
import { cachedRollupChain } from '../cache/rollupCache.js';
import { buildRollupChain } from './build.js';
import type { RollupContext } from './context.js';
import type { RollupChain } from './engine/chain.js';
import { RollupControls } from './engine/controls.js';
import { rollupMethods, withoutDevnet } from './methods/index.js';

/** How often the timer runs when the chain has time- or L1-driven work but no block interval. */
const POLL_MS = 1_000;

export class RollupNetwork implements Network {
  readonly kind = 'rollup' as const;
  readonly name: string;
  readonly chainId: string;
  readonly methods;
  private readonly ctx: RollupContext;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly wsMethods;

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
    this.wsMethods = starknetWsMethods(seed.prefix);
    this.ctx = { chain: engine, networkName: seed.name, ...(env.dumpDir === undefined ? {} : { dumpDir: env.dumpDir }) };
    if (env.devMethods === false) this.methods = withoutDevnet(this.methods);
    RollupControls.attach(engine, seedAccounts(seed));
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
    return this.executeIn(this.ctx, call);
  }

  private async executeIn(ctx: RollupContext, call: RpcCall): Promise<RpcResponse> {
    // The subscription methods are a WebSocket connection's own (connect()); elsewhere nothing can be pushed.
    if (this.wsMethods.get(call.method) !== undefined)
      return failure(call.id ?? null, new RpcError(ErrorCode.MethodNotFound, 'notifications not supported: subscribe on the WebSocket address (/ws/v3/<KEY>)'));
    await this.observeL1().catch(() => {});
    const response = await this.methods.execute(ctx, call);
    await this.kept?.afterCall();
    return response;
  }

  /** The views of the versioned paths: `/rpc/v0_8` answers as the unversioned path, `/rpc/v0_9` Starknet JSON-RPC 0.9. */
  private readonly versions = new Map<string, Network>();

  atRpcVersion(version: string): Network | undefined {
    const rpcVersion = version === '0_8' ? '0.8' : version === '0_9' ? '0.9' : undefined;
    if (rpcVersion === undefined) return undefined;
    let view = this.versions.get(rpcVersion);
    if (view === undefined) {
      const ctx: RollupContext = { ...this.ctx, rpcVersion };
      const { name, kind, chainId, engine } = this;
      view = { name, kind, chainId, engine, methods: this.methods, execute: (call) => this.executeIn(ctx, call), close: async () => {} };
      this.versions.set(rpcVersion, view);
    }
    return view;
  }

  /** A WebSocket connection: the Starknet subscriptions (src/subscriptions/starknet/) are its own. */
  connect(push: (text: string) => void): NetworkConnection {
    return rollupConnection(this.engine, this.wsMethods, (call) => this.execute(call), push);
  }

  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
  }
}

/** The predeployed accounts of a seed (devnet_getPredeployedAccounts). */
function seedAccounts(seed: RollupSeed) {
  return seed.accounts.map((a) => ({
    address: BigInt(a.address),
    publicKey: BigInt(a.publicKey),
    ...(a.privateKey === undefined ? {} : { privateKey: BigInt(a.privateKey) }),
    classHash: BigInt(a.classHash),
    initialBalanceWei: BigInt(a.balance),
    initialBalanceFri: BigInt(a.strkBalance),
  }));
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
    const { dataDirRollupChain } = await import('./persist/dataDir.js');
    const kept = await dataDirRollupChain(env.dataDir, seed, env.clock, env.cacheDir);
    return new RollupNetwork(kept.chain, seed, env, kept);
  }
  return new RollupNetwork(cachedRollupChain(seed, env.clock, env.cacheDir).chain, seed, env);
}
