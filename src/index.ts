/**
 * devgate's public API: `start(options)` serves the given chains on one port and gives a handle.
 *
 * @example
 * const gw = await start({ port: 0 });
 * const url = gw.url('mainnet'); // http://127.0.0.1:<port>/mainnet/v3/devgate
 * await gw.stop();
 */
import { DEFAULT_LIMITS, GatewayServer } from './gateway/server.js';
import { newAdminToken } from './admin/guard.js';
import type { GatewayControl } from './gateway/control.js';
import type { DevgateProvider, ProviderOptions } from './gateway/provider.js';
import { mergeLimits } from './gateway/limits.js';
import { StartOptionsSchema, type IsolateOptions, type LogTarget, type StartOptions } from './options.js';
import { loadKeysFile, OPEN_KEYS, parseKeys } from './gateway/policy/keys.js';
import {
  checkRollupL1Networks,
  createNetwork,
  isolateNetworks,
  isolateRefusal,
  type Network,
  type NetworkEnv,
  type NetworkInfo,
  type NetworkKind,
} from './network.js';
import { DEFAULT_ISOLATE, type CopyInfo, type IsolateSettings } from './eth/isolate/isolated.js';
import { cacheDir, hasCachedChain } from './cache/chainCache.js';
import { KINDS, stateNetwork } from './kinds.js';
import type { EthNetwork } from './eth/handle.js';
import type { RollupNetwork } from './rollup/handle.js';
import { packagePath } from './packageRoot.js';
import { SHIPPED_CONTRACTS, seedArtifacts } from './eth/engine/build/abi.js';
import { formatIssues, loadSeedFile, parseSeed, type LoadedSeed } from './seed/load.js';
import { StateKeeper } from './persist/stateKeeper.js';
import { loadGateway } from './persist/gatewayState.js';
import { readStateFile } from './persist/atomicFile.js';
import { prepareDumpDir } from './rollup/dumpFiles.js';
import { DEV_NETWORK, devSeed } from './seed/dev.js';
import { checkPortFree } from './portCheck.js';
import { readArtifacts } from './explorer/artifacts.js';
import type { KnownAbi } from './explorer/abis.js';
import { explorerHook } from './explorer/index.js';
import type { ExplorerSettings } from './explorer/settings.js';
import { NodeLog } from './log/nodeLog.js';

export type { NetworkInfo, NetworkKind } from './network.js';
export type { BlockSummary, BlockTag, EthNetwork, Hex } from './eth/handle.js';
export type { RollupNetwork } from './rollup/handle.js';
export type { BlockId as RollupBlockId, InvokeTransaction as RollupInvokeTransaction, OutcomeInput as RollupOutcome } from './rollup/engine/types.js';
export type { DumpAnswer as RollupDumpAnswer } from './rollup/dumpAnswer.js';
export { invokeTransaction as decodeRollupInvoke } from './rollup/params.js';
export { SeedError } from './seed/load.js';
export { VERSION } from './version.js';
export { ManualClock, systemClock, type Clock } from './clock.js';
export type { GatewayControl, UsageReport, KeysListing, ListedKey } from './gateway/control.js';
export type { GatewayLimits } from './gateway/limits.js';
export { ProviderRpcError, type DevgateProvider, type ProviderOptions, type RequestArguments } from './gateway/provider.js';
export type { OutageSpec, OutageInfo } from './gateway/policy/outage.js';
export { KeysError, type KeySpec } from './gateway/policy/keys.js';
export type { CopyInfo as IsolatedCopy } from './eth/isolate/isolated.js';
export type { CacheOptions, DevNetworkOptions, IsolateOptions, LogTarget, MiningOptions, StartOptions, StateOptions } from './options.js';
export { DEV_NETWORK } from './seed/dev.js';
export { DumpError } from './persist/dumpError.js';

/** The chains devgate ships, in `chains/`. */
export const SHIPPED_CHAINS: readonly string[] = ['mainnet.json', 'sepolia.json', 'starknet-mainnet.json'].map((f) => packagePath(`chains/${f}`));

/** The key `url()` and `wsUrl()` put in an address when none is given. */
export const DEFAULT_KEY = 'devgate';

/** A running gateway. */
export interface Gateway {
  readonly host: string;
  readonly port: number;
  readonly networks: readonly NetworkInfo[];
  /** HTTP JSON-RPC address of a network: `http://host:port/<network>/v3/<key>`. */
  url(network: string, key?: string): string;
  /** WebSocket address of a network: `ws://host:port/<network>/ws/v3/<key>`. */
  wsUrl(network: string, key?: string): string;
  /** The network the bare address serves (`bare` option), or undefined when it is off. */
  readonly bare: string | undefined;
  /** The bare address, `http://host:port/` (and `ws://host:port/` with `ws`), as anvil's; throws when it is off. */
  bareUrl(transport?: 'http' | 'ws'): string;
  /**
   * An in-process EIP-1193 provider of a network (no socket): `custom(gw.provider('mainnet'))` for viem,
   * `new BrowserProvider(gw.provider('mainnet'))` for ethers. The same answers and policy as HTTP for `key`.
   */
  provider(network: string, key?: string, options?: ProviderOptions): DevgateProvider;
  /** Keys, usage, outages and limits: the same operations as the admin interface at `/admin`. */
  readonly policy: GatewayControl;
  /** The admin interface's token (`Authorization: Bearer <token>` at `/admin`): `adminToken`, the keys file's, or made at start. */
  readonly adminToken: string;
  /** A rollup network, for control: createBlock, acceptOnL1, rejectBlock, setTime, increaseTime, addInvokeTransaction. */
  rollup(network: string): RollupNetwork;
  /** An eth network: blocks, balances, code, storage and dev accounts (controls join as they land). */
  eth(network: string): EthNetwork;
  /** The `@label` contracts an eth network's seed deployed: label -> address (the banner prints them). */
  contracts(network: string): Readonly<Record<string, string>>;
  /**
   * Dump and load: the state of every network as devgate's state file (blocks, receipts, state, pool, mining settings;
   * docs/persistence.md "Dump and load"), also written atomically to `file` if given. @example writeFileSync('s.bin', await gw.dumpState())
   */
  dumpState(file?: string): Promise<Uint8Array>;
  /** What the start state file (`state` option) loaded, one line per network; empty when nothing was loaded. */
  readonly stateLoaded: readonly string[];
  /** Loads a state file (a path or its bytes: devgate's, or anvil's JSON, gzip'd or not); answers one line per network it changed. */
  loadState(input: string | Uint8Array): Promise<readonly string[]>;
  /**
   * With `isolate` (docs/isolate.md): the live copies of an eth network, one per key, most recently used first, with
   * what each costs (trie nodes it wrote, their bytes, blocks it mined); empty without `isolate`.
   */
  isolated(network: string): readonly CopyInfo[];
  /** Closes HTTP and WebSocket and frees the port (after writing the dump file of `state`, if any). */
  stop(): Promise<void>;
}

/**
 * The network the bare address serves: `bare` if given ('none' or false: none); else the built-in dev network
 * without chains (or with dev options), else the first chain given of a kind the bare address serves (eth).
 */
function bareNetwork(opts: { bare?: string | false; chains?: unknown[]; dev?: object; fork?: object }, seeds: readonly LoadedSeed[]): string | undefined {
  if (opts.bare === false || opts.bare === 'none') return undefined;
  if (opts.bare !== undefined) return opts.bare;
  if (opts.chains === undefined || opts.dev !== undefined || opts.fork !== undefined) return DEV_NETWORK;
  return seeds.find((s) => KINDS[s.seed.kind].bareByDefault)?.seed.name;
}

/**
 * The explorer's ABIs (every artifact a seed can read, as its build does: seedArtifacts, so the shipped contracts' even
 * with no seed) and the rollups' L1 networks.
 */
function explorerSettings(seeds: readonly LoadedSeed[], given: readonly KnownAbi[]): ExplorerSettings {
  // Null-prototype: the explorer looks these up by a network name taken from a URL.
  const l1: Record<string, string> = Object.create(null);
  const prefix: Record<string, string> = Object.create(null);
  for (const { seed } of seeds) {
    const network = KINDS[seed.kind].l1Of?.(seed);
    if (network !== undefined) l1[seed.name] = network;
    const methods = KINDS[seed.kind].methodPrefix?.(seed);
    if (methods !== undefined) prefix[seed.name] = methods;
  }
  const artifacts = () => {
    const each = seeds.map(seedArtifacts);
    return { dirs: [SHIPPED_CONTRACTS, ...each.flatMap((a) => a.dirs)], files: each.flatMap((a) => a.files) };
  };
  return { artifacts, given, l1, prefix };
}

/** The node log of every network whose kind logs (eth; labelled, but for the bare address's, when there are several). */
async function startLog(target: LogTarget, networks: readonly Network[], bare: string | undefined): Promise<NodeLog> {
  const log = new NodeLog(target);
  const logged = networks.filter((n) => KINDS[n.kind].watchLog !== undefined);
  for (const n of logged) {
    const label = logged.length > 1 && n.name !== bare ? n.name : undefined;
    await KINDS[n.kind].watchLog!(log, n, label);
  }
  return log;
}

/** The bounds of `isolate` with the defaults filled in. */
function isolateSettings(option: 'key' | IsolateOptions): IsolateSettings {
  if (option === 'key') return DEFAULT_ISOLATE;
  return {
    maxCopies: option.maxCopies ?? DEFAULT_ISOLATE.maxCopies,
    idleMs: option.idleSeconds === undefined ? DEFAULT_ISOLATE.idleMs : Math.round(option.idleSeconds * 1000),
  };
}

/** Starts a gateway. Rejects with a message naming the bad option or seed field. */
export async function start(options: StartOptions = {}): Promise<Gateway> {
  const parsed = StartOptionsSchema.safeParse(options);
  if (!parsed.success) throw new TypeError(`invalid devgate options:\n${formatIssues(parsed.error)}`);
  const opts = parsed.data;
  const cache = cacheDir(opts.cache);
  // The data directory's code (and its LMDB native module with its 16 MB buffer) loads only when there is one.
  const persist = opts.dataDir === undefined ? undefined : await import('./eth/dataDir.js');
  const dataDir = opts.dataDir === undefined ? undefined : (await import('./persist/store.js')).DataDir.open(opts.dataDir);
  const isCached =
    cache === undefined && dataDir === undefined
      ? undefined
      : (candidate: LoadedSeed) =>
          (cache !== undefined && hasCachedChain(candidate, cache)) || (dataDir !== undefined && persist?.dataDirHolds(dataDir, candidate) === true);
  let seeds: LoadedSeed[];
  const names = new Set<string>();
  let keys;
  let limits;
  let adminToken: string;
  let bare: string | undefined;
  let given: KnownAbi[] = [];
  try {
    // A port in use is reported before any chain is built.
    if (opts.port !== 0) await checkPortFree(opts.port, opts.host);
    seeds = (opts.chains ?? SHIPPED_CHAINS).map((c, i) => (typeof c === 'string' ? loadSeedFile(c, isCached) : parseSeed(c, `chains[${i}]`)));
    for (const s of seeds) {
      if (names.has(s.seed.name)) throw new TypeError(`two chains are named ${JSON.stringify(s.seed.name)}; network names must be unique`);
      names.add(s.seed.name);
    }
    bare = bareNetwork(opts, seeds);
    if (bare === DEV_NETWORK && !names.has(DEV_NETWORK)) {
      const { autoImpersonate: _, ...dev } = opts.dev ?? {};
      // With a fork (docs/fork.md) the dev network is a fork of the upstream, its chain id the upstream's.
      const { chainId: _id, ...forked } = devSeed(dev);
      seeds.push(parseSeed(opts.fork === undefined ? devSeed(dev) : { ...forked, fork: opts.fork }, 'the dev network'));
      names.add(DEV_NETWORK);
    }
    if (bare !== undefined && !names.has(bare))
      throw new TypeError(`invalid devgate options:\nbare: no network is named ${JSON.stringify(bare)}; networks: ${[...names].join(', ')}`);
    keys = opts.keys === undefined ? OPEN_KEYS : typeof opts.keys === 'string' ? loadKeysFile(opts.keys) : parseKeys(opts.keys, 'option');
    adminToken = opts.adminToken ?? keys.adminToken ?? newAdminToken();
    try {
      limits = mergeLimits(DEFAULT_LIMITS, { maxBatch: opts.maxBatch, maxBodyBytes: opts.maxBodyBytes, maxMessageBytes: opts.maxBodyBytes, ...opts.limits });
    } catch (err) {
      throw new TypeError(`invalid devgate options:\nlimits: ${(err as Error).message}`);
    }
    checkRollupL1Networks(seeds.map((s) => s.seed));
    // The explorer's artifacts a user hands it: read once, before any chain is built (a bad file is named now).
    if (opts.explorer) given = readArtifacts(opts.artifacts);
    // Checked before any chain is built (a fork's would reach its upstream first).
    const refusal = opts.isolate === false ? undefined : isolateRefusal(seeds.map((s) => s.seed));
    if (refusal !== undefined) throw new TypeError(refusal);
  } catch (err) {
    // The data directory's lock is freed for the next start.
    await dataDir?.close();
    throw err;
  }
  const networks: Network[] = [];
  const l1BlockNumber = async (name: string) => {
    const l1 = networks.find((n) => n.name === name);
    return l1 === undefined ? undefined : KINDS[l1.kind].l1Head?.(l1.engine);
  };
  const mining =
    opts.mining === undefined
      ? undefined
      : {
          automine: opts.mining.automine ?? opts.mining.blockTime === undefined,
          intervalMs: opts.mining.blockTime === undefined ? undefined : Math.round(opts.mining.blockTime * 1000),
        };
  let log: NodeLog | undefined;
  let served: readonly Network[] = networks;
  const closeAll = async () => {
    log?.close();
    // The isolated networks served in place of shared ones.
    await Promise.all(served.map((n) => (networks.includes(n) ? undefined : n.close())));
    await Promise.all(networks.map((n) => n.close()));
    await dataDir?.close();
  };
  // Dump and load (src/eth/engine/persist/dump): the start file is loaded before the gateway listens.
  const state = opts.state;
  let stateLoaded: readonly string[] = [];
  const keeper = new StateKeeper(
    () => networks.map(stateNetwork),
    typeof state === 'string' ? { load: state, loadIfExists: true, dump: state } : { load: state?.load, dump: state?.dump, intervalSeconds: state?.interval },
  );
  let address;
  let server: GatewayServer;
  try {
    if (typeof state === 'object' && state.interval !== undefined && state.dump === undefined)
      throw new TypeError('invalid devgate options:\nstate.interval: needs state.dump (the file to write)');
    const dumpDir = opts.dumpDir === undefined ? undefined : await prepareDumpDir(opts.dumpDir);
    const env: NetworkEnv = {
      clock: opts.clock,
      l1BlockNumber,
      cacheDir: cache,
      dataDir,
      mining,
      devMethods: opts.devMethods,
      allowUnprotectedTxs: opts.allowUnprotectedTxs,
      // Filter budgets follow devgate_setLimits.
      limits: () => (server === undefined ? limits : server.control.getLimits()),
      txFeeCap: opts.txFeeCap,
      ...(dumpDir === undefined ? {} : { dumpDir }),
    };
    for (const s of seeds) networks.push(await createNetwork(s, env));
    if (opts.maxTraceBytes !== undefined) for (const n of networks) KINDS[n.kind].traceBudget?.(n.engine, opts.maxTraceBytes);
    stateLoaded = await keeper.loadAtStart();
    if (opts.dev?.autoImpersonate === true && bare === DEV_NETWORK) {
      (networks.find((n) => n.name === DEV_NETWORK)!.engine as { impersonation: { auto: boolean } }).impersonation.auto = true;
    }
    if (opts.log !== false) log = await startLog(opts.log === true ? process.stdout : opts.log, networks, bare);
    // With isolate, each key's copies start from the networks as they are now (seeded, state file loaded).
    served = opts.isolate === false ? networks : await isolateNetworks(networks, seeds, env, isolateSettings(opts.isolate), DEFAULT_KEY);
    const admin = { token: adminToken, host: opts.host };
    const explorer = opts.explorer ? explorerHook(explorerSettings(seeds, given)) : undefined;
    server = new GatewayServer(served, { limits, keys, clock: opts.clock, rawHttp: opts.rawHttp, idleGc: opts.idleGc, admin, bare, explorer });
    address = await server.listen(opts.port, opts.host);
  } catch (err) {
    await closeAll();
    throw err;
  }
  keeper.startInterval();
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const check = (network: string) => {
    if (!names.has(network)) throw new TypeError(`unknown network ${JSON.stringify(network)}; networks: ${[...names].join(', ')}`);
  };
  /** A network's handle, for the handle's kind only. */
  const handle = (kind: NetworkKind, network: string): unknown => {
    check(network);
    const n = networks.find((x) => x.name === network)!;
    if (n.kind !== kind) throw new TypeError(`network ${JSON.stringify(network)} is not ${KINDS[kind].title}`);
    return KINDS[kind].handle(network, n.engine);
  };
  let stopped: Promise<void> | undefined;
  return {
    host: address.address,
    port: address.port,
    networks: networks.map(({ name, kind, chainId }) => ({ name, kind, chainId })),
    policy: server.control,
    adminToken,
    url(network, key = DEFAULT_KEY) {
      check(network);
      return `http://${hostPart}:${address.port}/${network}/v3/${key}`;
    },
    wsUrl(network, key = DEFAULT_KEY) {
      check(network);
      return `ws://${hostPart}:${address.port}/${network}/ws/v3/${key}`;
    },
    bare,
    bareUrl(transport = 'http') {
      if (bare === undefined) throw new TypeError('the bare address is off (bare: "none")');
      return `${transport}://${hostPart}:${address.port}/`;
    },
    provider(network, key = DEFAULT_KEY, options) {
      check(network);
      return server.provider(network, key, options);
    },
    rollup: (network) => handle('rollup', network) as RollupNetwork,
    eth: (network) => handle('eth', network) as EthNetwork,
    contracts(network) {
      check(network);
      const n = networks.find((x) => x.name === network)!;
      const seed = seeds.find((s) => s.seed.name === network)?.seed;
      if (seed === undefined || seed.kind !== n.kind) return {};
      return KINDS[n.kind].contracts?.(seed, n.engine) ?? {};
    },
    isolated(network) {
      check(network);
      const n = served.find((x) => x.name === network);
      return n === undefined ? [] : (KINDS[n.kind].isolate?.copies(n) ?? []);
    },
    stateLoaded,
    dumpState: (file) => keeper.dump(file),
    loadState: async (input) => loadGateway(networks.map(stateNetwork), typeof input === 'string' ? await readStateFile(input) : input),
    stop() {
      stopped ??= (async () => {
        await server.close();
        try {
          await keeper.stop();
        } finally {
          await closeAll();
        }
      })();
      return stopped;
    },
  };
}
