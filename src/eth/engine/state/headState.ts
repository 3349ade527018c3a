/**
 * The state manager of a chain's head: @ethereumjs's MerkleStateManager (caches on), whose flush
 * writes the cached changes with a TrieWriter, one batch per storage trie and one for the account
 * trie, instead of one full-path trie write per changed slot and account. Same nodes, same roots.
 */
import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager, type MerkleStateManagerOpts } from '@ethereumjs/statemanager';
import { Account, type Address, createAccountFromRLP, createAddressFromString, concatBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  accountCacheGet,
  accountCachePut,
  accountNodeMap,
  accountTrie,
  checkpointNodeStore,
  checkpointStoreOf,
  codeCacheDel,
  codeCacheGet,
  codeDB,
  directFinalCommit,
  forgetStorageTrie,
  keyPrefixes,
  stateCaches,
  storageCacheGet,
  storageCacheClear,
  storageCachePut,
} from '../evm/merkleState.js';
import { serializeAccount } from '../evm/account.js';
import { trieGet } from './trieRead.js';
import { plainHex, plainHexView } from '../../../hex.js';
import { nibbles, TrieWriter, type TrieUpdate } from './trieWriter.js';

/** Where @ethereumjs keeps code: under its hash prefixed with "c" (when code hashes are prefixed). */
const CODEHASH_PREFIX = new TextEncoder().encode('c');
/** RLP of the empty string: how @ethereumjs's storage cache marks a slot known to be empty. */
const RLP_EMPTY = Uint8Array.of(0x80);

/**
 * A slot value's RLP with its leading zeros dropped, as `RLP.encode(unpadBytes(value))` gives it, in one allocation
 * (unpadBytes slices once per leading zero byte, and a balance or a timestamp has twenty or more).
 */
export function slotRLP(value: Uint8Array): Uint8Array {
  let i = 0;
  while (i < value.length && value[i] === 0) i++;
  const n = value.length - i;
  if (n === 0) return Uint8Array.of(0x80);
  if (n === 1 && value[i]! < 0x80) return Uint8Array.of(value[i]!);
  if (n > 55) return RLP.encode(value.subarray(i));
  const out = new Uint8Array(n + 1);
  out[0] = 0x80 + n;
  out.set(value.subarray(i), 1);
  return out;
}

/** A slot's value from its RLP, as new bytes (`RLP.decode` of a short canonical string; anything else goes to it). */
export function slotValue(rlp: Uint8Array): Uint8Array {
  const b = rlp[0]!;
  if (rlp.length === 1) return b < 0x80 ? Uint8Array.of(b) : b === 0x80 ? new Uint8Array(0) : (RLP.decode(rlp) as Uint8Array);
  if (b > 0x80 && b <= 0xb7 && rlp.length === b - 0x7f && (b > 0x81 || rlp[1]! >= 0x80)) return rlp.slice(1);
  return RLP.decode(rlp) as Uint8Array;
}

/** Most entries each of flush's hashed-path caches keeps (emptied when full): under ~0.5 KB an entry, ~2 MB each at most. */
const PATH_CACHE_ENTRIES = 4096;

/** A cache of `make(key)` by key, emptied once it holds PATH_CACHE_ENTRIES (a bound in bytes, without an LRU's work per hit). */
function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let v = cache.get(key);
  if (v === undefined) {
    if (cache.size >= PATH_CACHE_ENTRIES) cache.clear();
    cache.set(key, (v = make()));
  }
  return v;
}

/** An address of the caches (unprefixed hex), its Address, and the keccak-256 of its bytes as nibbles (a trie path) and as hex. */
interface HashedAddress {
  readonly address: Address;
  readonly path: Uint8Array;
  readonly hashHex: string;
}

export class HeadStateManager extends MerkleStateManager {
  /** Writers of the account trie and of storage tries (their nodes go to different places, see nodeStore). */
  private writers: { accounts: TrieWriter; storage: TrieWriter } | undefined;
  /** Accounts decoded from the RLP the account cache holds, by that RLP (a put stores a new one). */
  private readonly decoded = new WeakMap<Uint8Array, Account>();
  /**
   * Flush's trie paths of addresses and of slot keys, by their hex in the caches: every block flushes the same few
   * accounts (sender, fee recipient, the system contracts), each hashed two or three times and parsed from hex: the
   * keys' hashing was ~2% of bench/blockCost.ts's CPU profile, an eighth of flush. Pure functions of the key.
   */
  private readonly addressPaths = new Map<string, HashedAddress>();
  private readonly slotPaths = new Map<string, Uint8Array>();

  constructor(opts: MerkleStateManagerOpts) {
    super(opts);
    // Each sealed block's last commit writes its account-trie nodes straight into the node map (merkleState.ts).
    directFinalCommit(this);
  }

  /**
   * An account from the cache decoded once per cached RLP, handed out as a fresh copy (callers
   * change what they get): @ethereumjs decodes the RLP on every read, and running one transaction
   * reads the same few accounts a dozen times or more.
   */
  override async getAccount(address: Address): Promise<Account | undefined> {
    const account = await this.peekAccount(address);
    return account === undefined ? undefined : new Account(account.nonce, account.balance, account.storageRoot, account.codeHash);
  }

  /**
   * The account as getAccount gives it, but the decoded object itself, shared (never to be changed): for reads of a
   * field (getStorage's storage root, putStorage's existence check), which need no copy.
   */
  private async peekAccount(address: Address): Promise<Account | undefined> {
    const cache = stateCaches(this)?.account;
    const elem = cache === undefined ? undefined : accountCacheGet(cache, address);
    if (elem === undefined) return super.getAccount(address);
    const rlp = elem.accountRLP;
    if (rlp === undefined) return undefined;
    let account = this.decoded.get(rlp);
    if (account === undefined) this.decoded.set(rlp, (account = createAccountFromRLP(rlp)));
    return account;
  }

  /** An account put in the cache (the caches' keys made through Buffer: merkleState.ts), or deleted with undefined. */
  override async putAccount(address: Address, account: Account | undefined): Promise<void> {
    const cache = stateCaches(this)?.account;
    if (cache === undefined) return super.putAccount(address, account);
    if (account === undefined) return accountCachePut(cache, address, undefined);
    const { rlp, readBack } = serializeAccount(account);
    if (readBack !== undefined) this.decoded.set(rlp, readBack);
    accountCachePut(cache, address, rlp);
  }

  /**
   * An account deleted in the caches (keys made through Buffer), as @ethereumjs's Caches.deleteAccount does: code,
   * account, then storage. The journal deletes a touched empty account at every block's end (the system address).
   */
  override async deleteAccount(address: Address): Promise<void> {
    const caches = stateCaches(this);
    if (caches?.account === undefined || caches.code === undefined || caches.storage === undefined) return super.deleteAccount(address);
    codeCacheDel(caches.code, address);
    accountCachePut(caches.account, address, undefined);
    storageCacheClear(caches.storage, address);
  }

  /** Code from the cache (keys made through Buffer), else read as @ethereumjs reads and caches it. */
  override async getCode(address: Address): Promise<Uint8Array> {
    const cache = stateCaches(this)?.code;
    const elem = cache === undefined ? undefined : codeCacheGet(cache, address);
    if (elem === undefined) return super.getCode(address);
    return elem.code ?? new Uint8Array(0);
  }

  /**
   * A storage slot, from the cache or else read straight from the node store (state/trieRead.ts) and cached as
   * @ethereumjs's getStorage caches it. @ethereumjs's read makes a storage-trie object for the account (a copy of the
   * account trie; flush forgets it, since its root moves, so every block makes them anew) and walks it a promise per
   * node. Storage-trie nodes live in the map itself (flush writes them there, as @ethereumjs's storage tries do).
   */
  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const cache = stateCaches(this)?.storage;
    const nodes = cache === undefined || key.length !== 32 || keyPrefixes(this).storageTrieKeys ? undefined : accountNodeMap(this);
    if (cache === undefined || nodes === undefined) return super.getStorage(address, key);
    const cached = storageCacheGet(cache, address.bytes, key);
    if (cached !== undefined) return slotValue(cached);
    const account = await this.peekAccount(address);
    if (account === undefined) return new Uint8Array();
    const hash = this.common.customCrypto.keccak256 ?? keccak_256;
    // A copy: the store's bytes are never handed out.
    const value = trieGet(nodes, account.storageRoot, hash(key))?.slice() ?? RLP_EMPTY;
    storageCachePut(cache, address, key, value);
    return slotValue(value);
  }

  /**
   * Sets a storage slot in the cache only. @ethereumjs's putStorage means to do that, but its
   * `cache.put(...) ?? writeToTrie(...)` also writes every slot to the storage trie at once (put
   * returns undefined), re-hashing the storage trie and the account on every SSTORE; flush writes it.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = stateCaches(this)?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    if ((await this.peekAccount(address)) === undefined) throw new Error('putStorage() called on non-existing account');
    storageCachePut(cache, address, key, slotRLP(value));
  }

  /** Writes all cached changes to the tries (see the file comment). */
  override async flush(): Promise<void> {
    const caches = stateCaches(this);
    const prefixes = keyPrefixes(this);
    const db = checkpointStoreOf(this);
    if (caches === undefined || prefixes.storageTrieKeys || db === undefined) return super.flush();
    const hash = this.common.customCrypto.keccak256 ?? keccak_256;
    const writers = (this.writers ??= {
      accounts: new TrieWriter(checkpointNodeStore(db, false), hash),
      storage: new TrieWriter(checkpointNodeStore(db, true), hash),
    });

    const hashed = (addressHex: string): HashedAddress =>
      cached(this.addressPaths, addressHex, () => {
        const address = createAddressFromString(`0x${addressHex}`);
        const h = hash(address.bytes);
        return { address, path: nibbles(h), hashHex: plainHex(h) };
      });

    for (const [addressHex, { code }] of caches.code?.flush() ?? []) {
      if (code === undefined) continue;
      const { address } = hashed(addressHex);
      const codeHash = hash(code);
      await codeDB(this).put(prefixes.codeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash, code);
      if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
      await this.modifyAccountFields(address, { codeHash });
    }

    const slotsByAddress = new Map<string, TrieUpdate[]>();
    for (const [addressHex, keyHex, value] of caches.storage?.flush() ?? []) {
      // The cache holds each slot's canonical RLP (slotRLP, or as read from the trie); 0x80 or nothing: deleted.
      const deleted = value === undefined || (value.length === 1 && value[0] === 0x80);
      let list = slotsByAddress.get(addressHex);
      if (list === undefined) slotsByAddress.set(addressHex, (list = []));
      list.push({ path: cached(this.slotPaths, keyHex, () => nibbles(hash(plainHexView(keyHex)))), value: deleted ? null : value });
    }
    for (const [addressHex, updates] of slotsByAddress) {
      const { address, hashHex } = hashed(addressHex);
      const account = await this.getAccount(address);
      if (account === undefined) continue;
      account.storageRoot = writers.storage.apply(account.storageRoot, updates);
      // The storage trie @ethereumjs keeps for this account would still have the old root.
      forgetStorageTrie(this, hashHex);
      await this.putAccount(address, account);
    }

    const accounts: TrieUpdate[] = [];
    for (const [addressHex, elem] of caches.account?.flush() ?? []) {
      accounts.push({ path: hashed(addressHex).path, value: elem.accountRLP ?? null });
    }
    if (accounts.length > 0) {
      const trie = accountTrie(this);
      trie.root(writers.accounts.apply(trie.root(), accounts));
    }
  }
}
