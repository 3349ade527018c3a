/**
 * A fork's base: the upstream's fork block (its header rebuilt here, its hash checked against the upstream's), the
 * Common local blocks are built under, and the lazy state at the fork block's root (a node store filled from
 * eth_getProof answers and the disk cache, read and written through a ForkStateManager). A chain starts from this
 * as it starts from a genesis: the fork block is its base, the blocks after it are local.
 */
import { type BlockHeader, createBlockHeaderFromRPC, type JSONRPCBlock } from '@ethereumjs/block';
import { type Common, Mainnet, Sepolia } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches } from '@ethereumjs/statemanager';
import { bytesToHex, MapDB, ValueEncoding } from '@ethereumjs/util';
import { mapOfMapDB } from '../evm/merkleState.js';
import { seedCommon } from '../exec/common.js';
import { ForkDiskCache } from './forkCache.js';
import { ForkHistory } from './forkHistory.js';
import { ForkState, keccak256 } from './forkState.js';
import { ForkStateManager } from './forkStateManager.js';
import { Upstream, type UpstreamOptions } from './upstream.js';

/** What a fork is opened from (the seed's `fork` field, the CLI's --fork-* flags, start()'s `fork`). */
export interface ForkOptions extends Omit<UpstreamOptions, 'url'> {
  /** The upstream's JSON-RPC URL. */
  readonly url: string;
  /** The fork block; default: the upstream's latest, pinned when the fork opens. */
  readonly blockNumber?: bigint;
  /** The hardfork of local blocks; default: the known chain's at the fork block, else the newest the header's fields fit. */
  readonly hardfork?: string;
  /** The chain cache directory (the fork keeps its fetched state under `fork/`); undefined: no disk cache. */
  readonly cacheDir?: string;
  /** See ForkState: the longest path a deletion's sibling is searched for (default 5 nibbles). */
  readonly maxSearchNibbles?: number;
  /** The node store to fetch into (a data directory's: what it holds is not fetched again); default a new Map. */
  readonly nodes?: Map<string, Uint8Array>;
  /** See ForkState: told of every node and code fetched. */
  readonly keep?: (key: string, value: Uint8Array) => void;
}

export interface ForkBase {
  readonly upstream: Upstream;
  readonly chainId: bigint;
  readonly blockNumber: bigint;
  /** The fork block's header, as the upstream's hash says it is. */
  readonly header: BlockHeader;
  readonly common: Common;
  /** The node store of the fork's tries (shared with the head state manager's trie). */
  readonly nodes: Map<string, Uint8Array | string>;
  readonly state: ForkState;
  readonly headState: ForkStateManager;
  readonly history: ForkHistory;
  readonly cache?: ForkDiskCache;
}

const quantity = (n: bigint) => `0x${n.toString(16)}`;

/** The node stores of open forks and their fork's state (a chain's store, as chain.parts() gives it, tells a fork from a plain chain). */
const FORK_STORES = new WeakMap<object, ForkState>();

/**
 * Whether `nodes` is a fork's node store: it holds only what the fork fetched from its upstream and wrote itself, so
 * its tries have subtrees that are only hashes, and a dump keeps the whole store rather than what the roots reach
 * (which would meet those subtrees).
 */
export const isForkStore = (nodes: object): boolean => FORK_STORES.has(nodes);

/** The fork state whose node store is `nodes`, or undefined for a plain chain's store. */
export const forkStateOfStore = (nodes: object): ForkState | undefined => FORK_STORES.get(nodes);

/** Opens a fork: pins the block, checks its header, loads the disk cache; fetches no state yet. */
export async function openFork(options: ForkOptions): Promise<ForkBase> {
  const upstream = new Upstream(options);
  const chainId = BigInt(await upstream.request<string>('eth_chainId', []));
  const blockNumber = options.blockNumber ?? BigInt(await upstream.request<string>('eth_blockNumber', []));
  const cache = options.cacheDir === undefined ? undefined : ForkDiskCache.open(options.cacheDir, chainId, blockNumber);
  const history = new ForkHistory(upstream, blockNumber, cache);
  const json = await history.request<JSONRPCBlock & { hash: string }>('eth_getBlockByNumber', [quantity(blockNumber), false]);
  if (json === null || json === undefined) throw new Error(`the fork upstream has no block ${blockNumber}`);
  const hardfork = options.hardfork ?? hardforkOf(chainId, json);
  const common = seedCommon(Number(chainId), 'fork', hardfork);
  const header = createBlockHeaderFromRPC(json, { common, setHardfork: false, skipConsensusFormatValidation: true });
  if (bytesToHex(header.hash()) !== json.hash) {
    throw new Error(
      `the fork block ${blockNumber}'s header rebuilt from the upstream's fields hashes to ${bytesToHex(header.hash())}, not the upstream's ${json.hash}`,
    );
  }
  const db = new MapDB<string, Uint8Array>(options.nodes);
  const nodes = mapOfMapDB(db);
  cache?.loadState(nodes, keccak256);
  const state = new ForkState({ upstream, blockNumber, nodes, cache, maxSearchNibbles: options.maxSearchNibbles, keep: options.keep });
  FORK_STORES.set(nodes, state);
  const trie = new MerklePatriciaTrie({ useKeyHashing: true, common, db, valueEncoding: ValueEncoding.Bytes });
  trie.root(header.stateRoot);
  const headState = new ForkStateManager({ common, trie, caches: new Caches() }, state);
  return { upstream, chainId, blockNumber, header, common, nodes, state, headState, history, cache };
}

/** Known chains' schedules, by chain id (a real chain's fork block picks its hardfork by number and time). */
const KNOWN = new Map([
  [1n, { config: Mainnet, merge: 15537394n }],
  [11155111n, { config: Sepolia, merge: 1735371n }],
]);

/** Hardforks from the newest down, with the header field each added (a header without it is older). */
const BY_FIELDS: [string, keyof JSONRPCBlock | undefined][] = [
  ['osaka', 'requestsHash'],
  ['cancun', 'parentBeaconBlockRoot'],
  ['shanghai', 'withdrawalsRoot'],
  ['london', 'baseFeePerGas'],
  ['berlin', undefined],
];

/**
 * The hardfork local blocks are built under: a known chain's own at the fork block (when the block is past that
 * chain's merge, so it is that chain and not a local one with its chain id), else the newest hardfork whose header
 * shape the fork block has (Prague and Osaka headers are alike: Osaka is taken).
 */
export function hardforkOf(chainId: bigint, block: JSONRPCBlock): string {
  const known = KNOWN.get(chainId);
  const number = BigInt(block.number);
  if (known !== undefined && number >= known.merge) {
    const timestamp = BigInt(block.timestamp);
    let found = 'paris';
    for (const h of known.config.hardforks) {
      const at = h.timestamp !== undefined && h.timestamp !== null ? BigInt(h.timestamp) : undefined;
      if (at !== undefined && at <= timestamp) found = h.name;
    }
    return found;
  }
  for (const [name, field] of BY_FIELDS) if (field === undefined || block[field] != null) return name;
  return 'berlin';
}
