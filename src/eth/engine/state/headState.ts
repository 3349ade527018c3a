/**
 * The state manager of a chain's head: @ethereumjs's MerkleStateManager (caches on), whose flush
 * writes the cached changes with a TrieWriter, one batch per storage trie and one for the account
 * trie, instead of one full-path trie write per changed slot and account. Same nodes, same roots.
 */
import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import {
  Account,
  type Address,
  bytesToUnprefixedHex,
  createAccountFromRLP,
  unpadBytes,
  createAddressFromString,
  MapDB,
  unprefixedHexToBytes,
  concatBytes,
  hexToBytes,
} from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { nibbles, TrieWriter, type NodeStore, type TrieUpdate } from './trieWriter.js';

/** Where @ethereumjs keeps code: under its hash prefixed with "c" (when code hashes are prefixed). */
const CODEHASH_PREFIX = new TextEncoder().encode('c');

interface CheckpointStore {
  readonly checkpoints: { keyValueMap: Map<string, Uint8Array | undefined> }[];
  readonly db: MapDB<string, Uint8Array | string>;
}

export class HeadStateManager extends MerkleStateManager {
  /** Writers of the account trie and of storage tries (their nodes go to different places, see nodeStore). */
  private writers: { accounts: TrieWriter; storage: TrieWriter } | undefined;
  /** Accounts decoded from the RLP the account cache holds, by that RLP (a put stores a new one). */
  private readonly decoded = new WeakMap<Uint8Array, Account>();

  /**
   * An account from the cache decoded once per cached RLP, handed out as a fresh copy (callers
   * change what they get): @ethereumjs decodes the RLP on every read, and running one transaction
   * reads the same few accounts a dozen times or more.
   */
  override async getAccount(address: Address): Promise<Account | undefined> {
    const elem = this._caches?.account?.get(address);
    if (elem === undefined) return super.getAccount(address);
    const rlp = elem.accountRLP;
    if (rlp === undefined) return undefined;
    let account = this.decoded.get(rlp);
    if (account === undefined) this.decoded.set(rlp, (account = createAccountFromRLP(rlp)));
    return new Account(account.nonce, account.balance, account.storageRoot, account.codeHash);
  }

  /**
   * Sets a storage slot in the cache only. @ethereumjs's putStorage means to do that, but its
   * `cache.put(...) ?? writeToTrie(...)` also writes every slot to the storage trie at once (put
   * returns undefined), re-hashing the storage trie and the account on every SSTORE; flush writes it.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = this._caches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    if ((await this.getAccount(address)) === undefined) throw new Error('putStorage() called on non-existing account');
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  /** Writes all cached changes to the tries (see the file comment). */
  override async flush(): Promise<void> {
    const caches = this._caches;
    const db = this._trie.database() as unknown as CheckpointStore;
    if (caches === undefined || this._prefixStorageTrieKeys || !(db.db instanceof MapDB)) return super.flush();
    const hash = this.common.customCrypto.keccak256 ?? keccak_256;
    const writers = (this.writers ??= { accounts: new TrieWriter(nodeStore(db, false), hash), storage: new TrieWriter(nodeStore(db, true), hash) });

    for (const [addressHex, { code }] of caches.code?.flush() ?? []) {
      if (code === undefined) continue;
      const address = createAddressFromString(`0x${addressHex}`);
      const codeHash = hash(code);
      await this._getCodeDB().put(this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash, code);
      if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
      await this.modifyAccountFields(address, { codeHash });
    }

    const slotsByAddress = new Map<string, TrieUpdate[]>();
    for (const [addressHex, keyHex, value] of caches.storage?.flush() ?? []) {
      const decoded = RLP.decode(value ?? new Uint8Array()) as Uint8Array;
      let list = slotsByAddress.get(addressHex);
      if (list === undefined) slotsByAddress.set(addressHex, (list = []));
      list.push({ path: nibbles(hash(unprefixedHexToBytes(keyHex))), value: decoded.length > 0 ? RLP.encode(decoded) : null });
    }
    for (const [addressHex, updates] of slotsByAddress) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      if (account === undefined) continue;
      account.storageRoot = writers.storage.apply(account.storageRoot, updates);
      // The storage trie @ethereumjs keeps for this account would still have the old root.
      delete this._storageTries[bytesToUnprefixedHex(hash(address.bytes))];
      await this.putAccount(address, account);
    }

    const accounts: TrieUpdate[] = [];
    for (const [addressHex, elem] of caches.account?.flush() ?? []) {
      accounts.push({ path: nibbles(hash(unprefixedHexToBytes(addressHex))), value: elem.accountRLP ?? null });
    }
    if (accounts.length > 0) this._trie.root(writers.accounts.apply(this._trie.root(), accounts));
  }
}

/**
 * The head trie's node store, read and written synchronously as @ethereumjs's CheckpointDB does:
 * open checkpoints first (newest first), then the map. Account-trie nodes written while a
 * checkpoint is open go into it (so a revert drops them); storage-trie nodes go straight to the
 * map, as @ethereumjs's storage tries (copies without checkpoints) write them.
 */
function nodeStore(db: CheckpointStore, direct: boolean): NodeStore {
  const map = (db.db as unknown as { _database: Map<string, Uint8Array | string> })._database;
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
