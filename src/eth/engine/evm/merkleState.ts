/**
 * What devgate reads and changes inside @ethereumjs's MerkleStateManager (`statemanager/dist/esm/merkleStateManager.js`),
 * its trie (`mpt/dist/esm/mpt.js`), the trie's CheckpointDB (`mpt/dist/esm/db/checkpointDB.js`) and MapDB
 * (`util/dist/esm/mapDB.js`), for the head state manager's batch flush (state/headState.ts), the call-VM pool
 * (exec/vmPool.ts), the chain's state readers and parts (chain/states.ts, chain/chain.ts) and the fork's lazy state
 * (fork/forkBase.ts, fork/forkStateManager.ts). One accessor per member, so an upgrade that renames or changes one is
 * one place to look (the fence test pins those files). Also its caches' reads and writes with keys made through Buffer
 * (`cache/storage.js`, `cache/account.js`, `cache/code.js`).
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import type { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, createAccountFromRLP, type DB, hexToBytes, MapDB, ValueEncoding } from '@ethereumjs/util';
import type { NodeStore } from '../state/trieWriter.js';
import { plainHex } from '../../../hex.js';

/** MerkleStateManager's protected members devgate uses. */
interface MerkleInternals {
  _caches?: Caches;
  _trie: MerklePatriciaTrie;
  _storageTries: Record<string, MerklePatriciaTrie>;
  _prefixCodeHashes: boolean;
  _prefixStorageTrieKeys: boolean;
  _checkpointCount: number;
  _getCodeDB(): DB;
  keccakFunction: (bytes: Uint8Array) => Uint8Array;
}

const internals = (sm: MerkleStateManager) => sm as unknown as MerkleInternals;

/** The state manager's caches (undefined when it runs without them). */
export function stateCaches(sm: MerkleStateManager): Caches | undefined {
  return internals(sm)._caches;
}

/** An LRU or an ordered map: the store of each of @ethereumjs's caches (the one its settings chose). */
interface CacheStore<E> {
  _lruCache?: { get(key: string): E | undefined; set(key: string, value: E): void };
  _orderedMapCache?: { getElementByKey(key: string): E | undefined; setElement(key: string, value: E): void };
  _stats: { reads: number; hits: number; writes: number; deletions: number };
  /** Debug logging on (the `ethjs` DEBUG): then the stock methods run, for their log lines. */
  DEBUG: boolean;
}
const cacheRead = <E>(c: CacheStore<E>, key: string): E | undefined =>
  c._lruCache !== undefined ? c._lruCache.get(key) : c._orderedMapCache!.getElementByKey(key);
function cacheWrite<E>(c: CacheStore<E>, key: string, value: E): void {
  if (c._lruCache !== undefined) c._lruCache.set(key, value);
  else c._orderedMapCache!.setElement(key, value);
}

/** StorageCache's members: per-address maps of slot hex -> RLP, and its checkpoint diff's saver. */
interface StorageCacheInternals extends CacheStore<Map<string, Uint8Array>> {
  _saveCachePreState(addressHex: string, keyHex: string): void;
}
/** AccountCache's and CodeCache's members: elements by address hex, and the checkpoint diff's saver. */
interface AddressCacheInternals<E> extends CacheStore<E> {
  _saveCachePreState(addressHex: string): void;
}

/*
 * The caches' own get and put make their keys with @noble's bytesToHex, which on Node before 24 concatenates two
 * digits at a time (~970 B of strings per 32-byte key against ~180 through Buffer); a send reads and writes the
 * same few accounts and slots dozens of times. These are their get/put with the keys made through Buffer: same keys,
 * same lookups (an LRU's recency too), same checkpoint diffs, same counters.
 */

/** StorageCache.get: the slot's RLP, `0x80` when known empty, undefined when not cached. */
export function storageCacheGet(cache: NonNullable<Caches['storage']>, address: Uint8Array, key: Uint8Array): Uint8Array | undefined {
  const c = cache as unknown as StorageCacheInternals;
  if (c.DEBUG) return cache.get(new Address(address), key);
  return storageCacheGetHex(cache, plainHex(address), plainHex(key));
}

/**
 * StorageCache.get with the keys given as they are made (unprefixed hex of the address and the slot), for a caller
 * that reads the same slots every block (requestCalls.ts); undefined, as not cached, with DEBUG.
 */
export function storageCacheGetHex(cache: NonNullable<Caches['storage']>, addressHex: string, keyHex: string): Uint8Array | undefined {
  const c = cache as unknown as StorageCacheInternals;
  if (c.DEBUG) return undefined;
  const slots = cacheRead(c, addressHex);
  c._stats.reads += 1;
  if (slots === undefined) return undefined;
  c._stats.hits += 1;
  return slots.get(keyHex);
}

/** StorageCache.put: the slot's RLP (`0x80`: empty). */
export function storageCachePut(cache: NonNullable<Caches['storage']>, address: Address, key: Uint8Array, value: Uint8Array): void {
  const c = cache as unknown as StorageCacheInternals;
  if (c.DEBUG) {
    cache.put(address, key, value);
    return;
  }
  const addressHex = plainHex(address.bytes);
  const keyHex = plainHex(key);
  c._saveCachePreState(addressHex, keyHex);
  const slots = cacheRead(c, addressHex) ?? new Map<string, Uint8Array>();
  slots.set(keyHex, value);
  cacheWrite(c, addressHex, slots);
  c._stats.writes += 1;
}

/** An account or code cache's get without DEBUG: the element under the address's key, counted as the cache counts it. */
function countedRead<E>(c: AddressCacheInternals<E>, address: Address): E | undefined {
  const elem = cacheRead(c, plainHex(address.bytes));
  c._stats.reads += 1;
  if (elem !== undefined) c._stats.hits += 1;
  return elem;
}

/** AccountCache.get: the account's RLP (undefined inside: known not to exist), or undefined when not cached. */
export function accountCacheGet(cache: NonNullable<Caches['account']>, address: Address): { accountRLP: Uint8Array | undefined } | undefined {
  const c = cache as unknown as AddressCacheInternals<{ accountRLP: Uint8Array | undefined }>;
  return c.DEBUG ? cache.get(address) : countedRead(c, address);
}

/** AccountCache.put of a whole account (its RLP, `serialize()`), or .del (undefined). */
export function accountCachePut(cache: NonNullable<Caches['account']>, address: Address, accountRLP: Uint8Array | undefined): void {
  const c = cache as unknown as AddressCacheInternals<{ accountRLP: Uint8Array | undefined }>;
  if (c.DEBUG) {
    if (accountRLP === undefined) cache.del(address);
    else cache.put(address, createAccountFromRLP(accountRLP));
    return;
  }
  const addressHex = plainHex(address.bytes);
  c._saveCachePreState(addressHex);
  cacheWrite(c, addressHex, { accountRLP });
  if (accountRLP === undefined) c._stats.deletions += 1;
  else c._stats.writes += 1;
}

/** CodeCache.get: the account's code (undefined inside: none), or undefined when not cached. */
export function codeCacheGet(cache: NonNullable<Caches['code']>, address: Address): { code: Uint8Array | undefined } | undefined {
  const c = cache as unknown as AddressCacheInternals<{ code: Uint8Array | undefined }>;
  return c.DEBUG ? cache.get(address) : countedRead(c, address);
}

/** CodeCache.del: the account's code known to be none. */
export function codeCacheDel(cache: NonNullable<Caches['code']>, address: Address): void {
  const c = cache as unknown as AddressCacheInternals<{ code: Uint8Array | undefined }>;
  if (c.DEBUG) {
    cache.del(address);
    return;
  }
  const addressHex = plainHex(address.bytes);
  c._saveCachePreState(addressHex);
  cacheWrite(c, addressHex, { code: undefined });
  c._stats.deletions += 1;
}

/** StorageCache.clearStorage: the account's slots forgotten (as the stock one, no checkpoint diff is kept). */
export function storageCacheClear(cache: NonNullable<Caches['storage']>, address: Address): void {
  const c = cache as unknown as StorageCacheInternals;
  if (c.DEBUG) {
    cache.clearStorage(address);
    return;
  }
  cacheWrite(c, plainHex(address.bytes), new Map<string, Uint8Array>());
}

/** The account trie. */
export function accountTrie(sm: MerkleStateManager): MerklePatriciaTrie {
  return internals(sm)._trie;
}

/** Forgets the storage trie kept for the account whose address hashes to `addressHashHex` (unprefixed): its root is stale. */
export function forgetStorageTrie(sm: MerkleStateManager, addressHashHex: string): void {
  delete internals(sm)._storageTries[addressHashHex];
}

/** The database code is kept in. */
export function codeDB(sm: MerkleStateManager): DB {
  return internals(sm)._getCodeDB();
}

/** Whether code hashes (with "c") and storage-trie keys (with the address hash) are prefixed in the database. */
export function keyPrefixes(sm: MerkleStateManager): { codeHashes: boolean; storageTrieKeys: boolean } {
  const s = internals(sm);
  return { codeHashes: s._prefixCodeHashes, storageTrieKeys: s._prefixStorageTrieKeys };
}

/** The hash function the state manager hashes addresses and code with (its Common's keccak256 or the default). */
export function stateKeccak(sm: MerkleStateManager): (bytes: Uint8Array) => Uint8Array {
  return internals(sm).keccakFunction;
}

/** How many checkpoints are open (a state manager with none left open may be reused). */
export function openCheckpoints(sm: unknown): number | undefined {
  return (sm as Partial<MerkleInternals>)._checkpointCount;
}

/** The Map a MapDB keeps its entries in (keys unprefixed hex). */
export function mapOfMapDB(db: MapDB<string, Uint8Array | string>): Map<string, Uint8Array | string> {
  return (db as unknown as { _database: Map<string, Uint8Array | string> })._database;
}

/** The Map the account trie keeps its nodes in (keys unprefixed hex), or undefined when its database is not a MapDB. */
export function accountNodeMap(sm: MerkleStateManager): Map<string, Uint8Array | string> | undefined {
  const store = checkpointStoreOf(sm);
  return store === undefined ? undefined : mapOfMapDB(store.db);
}

/** The node-cache size a trie was made with (a copy with the same cache passes it on). */
export function trieCacheSize(trie: MerklePatriciaTrie): number {
  return (trie as unknown as { _opts: { cacheSize: number } })._opts.cacheSize;
}

/** A trie's CheckpointDB over a MapDB: its open checkpoints (oldest first) and the MapDB under them. */
export interface CheckpointStore {
  readonly checkpoints: { keyValueMap: Map<string, Uint8Array | undefined> }[];
  readonly db: MapDB<string, Uint8Array | string>;
}

/** The account trie's CheckpointDB when it keeps its nodes in a MapDB, else undefined. */
export function checkpointStoreOf(sm: MerkleStateManager): CheckpointStore | undefined {
  const db = accountTrie(sm).database() as unknown as CheckpointStore;
  return db.db instanceof MapDB ? db : undefined;
}

/**
 * Makes the last commit of `sm`'s account-trie CheckpointDB (the one that closes its outermost checkpoint: every block
 * the head state seals) write the checkpoint's nodes straight into the MapDB's Map, in the checkpoint's order, with
 * Bytes values (the head's trie: state/create.ts); other commits (nested, or another value encoding) are the stock
 * one. The stock one turns each key to bytes and back to hex twice (@noble's bytesToHex concatenates two digits at a
 * time on Node before 24) and awaits a MapDB put per node: the same Map writes, in the same order. Idempotent.
 */
export function directFinalCommit(sm: MerkleStateManager): void {
  const db = accountTrie(sm).database() as unknown as FinalCommitDB;
  if (!(db.db instanceof MapDB) || db.valueEncoding !== ValueEncoding.Bytes || db[DIRECT] === true) return;
  const stock = db.commit.bind(db);
  const map = mapOfMapDB(db.db);
  db[DIRECT] = true;
  db.commit = async () => {
    if (db.checkpoints.length !== 1) return stock();
    const { keyValueMap } = db.checkpoints.pop()!;
    for (const [key, value] of keyValueMap) {
      if (value === undefined) map.delete(key);
      else map.set(key, value);
      db._stats.db.writes += 1;
    }
  };
}

const DIRECT = Symbol('directFinalCommit');

/** CheckpointDB's members the direct commit reads and replaces (`mpt/dist/esm/db/checkpointDB.js`). */
interface FinalCommitDB extends CheckpointStore {
  readonly valueEncoding: ValueEncoding;
  readonly _stats: { db: { writes: number } };
  commit(): Promise<void>;
  [DIRECT]?: true;
}

/**
 * A trie's node store, read and written synchronously as @ethereumjs's CheckpointDB does: open checkpoints first
 * (newest first), then the map. Nodes written while a checkpoint is open go into it (so a revert drops them), unless
 * `direct`: storage-trie nodes go straight to the map, as @ethereumjs's storage tries (copies without checkpoints)
 * write them.
 */
export function checkpointNodeStore(db: CheckpointStore, direct: boolean): NodeStore {
  const map = mapOfMapDB(db.db);
  return {
    get(hex) {
      for (let i = db.checkpoints.length - 1; i >= 0; i--) {
        const v = db.checkpoints[i]!.keyValueMap.get(hex);
        if (v !== undefined) return v;
      }
      const v = map.get(hex);
      return typeof v === 'string' ? hexToBytes(`0x${v}`) : v;
    },
    put(hex, encoded) {
      const top = direct ? undefined : db.checkpoints[db.checkpoints.length - 1];
      if (top !== undefined) top.keyValueMap.set(hex, encoded);
      else map.set(hex, encoded);
    },
  };
}
