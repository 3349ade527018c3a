/**
 * The state an eth_call runs on: the committed state at one block's root, read through a cache that
 * every call on that root shares (a root never changes, so neither does what it holds), under a
 * private overlay that takes the call's writes. The overlay is undone with checkpoint()/revert() and
 * never reaches the shared cache, so a call can change nothing another call sees.
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { Account, type Address, createAccountFromRLP } from '@ethereumjs/util';
import { trieGet, type NodeStore } from './trieRead.js';
import { plainHex } from '../../../hex.js';
import { type AccountFieldChanges, withFields } from './accountFields.js';
import { copyAccount } from '../evm/account.js';
import { UndoLog } from './undoLog.js';

const hex = plainHex;
const EMPTY = new Uint8Array(0);

/** The hex key of each address's bytes met (an Address's bytes are never changed in place: a new address is a new Address). */
const addressKeys = new WeakMap<Uint8Array, string>();

/**
 * The map key of an address: its bytes as plain hex, worked out once per bytes array. The EVM asks for the same few
 * Address objects (caller, callee, code address) a dozen times per call; a WeakMap lookup is ~30x cheaper than the hex.
 */
export function addressKey(address: Address): string {
  const bytes = address.bytes;
  let key = addressKeys.get(bytes);
  if (key === undefined) addressKeys.set(bytes, (key = hex(bytes)));
  return key;
}

/** Where RootReads find trie nodes and code (the chain's node store). */
export interface TrieSource {
  readonly nodes: NodeStore;
  /** keccak256 of an address or slot (`key` is its hex, for a cache of hashes). */
  hashedKey(bytes: Uint8Array, key: string): Uint8Array;
  /** The code of a code hash; empty when unknown. */
  code(codeHash: Uint8Array): Uint8Array;
}

/** A count of the entries that a set of RootReads hold together (their owner evicts to keep it bounded). */
export interface ReadsBudget {
  entries: number;
}

/**
 * Accounts and storage of one state root, read from the trie once and kept (a root is immutable).
 * Bounded: past `maxEntries` reads the cache starts afresh; the entries count towards a budget shared
 * with other roots, until retire(). Read-only: nothing ever writes here.
 */
export class RootReads {
  private accounts = new Map<string, Account | null>();
  private storage = new Map<string, Uint8Array>();
  private size = 0;
  private retired = false;

  constructor(
    private readonly source: TrieSource,
    readonly root: Uint8Array,
    private readonly budget: ReadsBudget = { entries: 0 },
    private readonly maxEntries = 8192,
  ) {}

  /** The account at `address` as committed at this root (shared: copy before changing it). */
  account(address: Address, key = addressKey(address)): Account | null {
    const cached = this.accounts.get(key);
    if (cached !== undefined) return cached;
    const rlp = trieGet(this.source.nodes, this.root, this.source.hashedKey(address.bytes, key));
    const account = rlp === null ? null : createAccountFromRLP(rlp);
    this.makeRoom();
    this.accounts.set(key, account);
    return account;
  }

  /** A storage value (minimal bytes, empty for zero) of an account of this root. */
  slot(account: Account, slot: Uint8Array, addrKey: string): Uint8Array {
    const slotKey = hex(slot);
    const key = addrKey + slotKey;
    const cached = this.storage.get(key);
    if (cached !== undefined) return cached;
    const raw = trieGet(this.source.nodes, account.storageRoot, this.source.hashedKey(slot, slotKey));
    const value = raw === null ? EMPTY : (RLP.decode(raw) as Uint8Array);
    this.makeRoom();
    this.storage.set(key, value);
    return value;
  }

  code(codeHash: Uint8Array): Uint8Array {
    return this.source.code(codeHash);
  }

  /** Stops counting towards the budget (the owner has let go of this root; a call may still finish on it). */
  retire(): void {
    if (!this.retired) this.budget.entries -= this.size;
    this.retired = true;
  }

  /** Counts one more entry, starting afresh past maxEntries. */
  private makeRoom(): void {
    if (this.size >= this.maxEntries) {
      if (!this.retired) this.budget.entries -= this.size;
      this.size = 0;
      this.accounts = new Map();
      this.storage = new Map();
    }
    this.size++;
    if (!this.retired) this.budget.entries++;
  }
}

/** A copy of a CallState's writes (accounts, storage, cleared storage, code by address key), for `restore`. */
export interface Overlay {
  readonly accounts: ReadonlyMap<string, Account | null>;
  readonly storage: ReadonlyMap<string, ReadonlyMap<string, Uint8Array>>;
  readonly cleared: ReadonlySet<string>;
  readonly codes: ReadonlyMap<string, Uint8Array>;
}

/**
 * A StateManagerInterface for calls: reads fall through a private overlay to a RootReads, writes
 * go to the overlay only. checkpoint/commit/revert keep an undo log; at depth 0 the overlay is
 * empty again after revert(). `at()` re-points an idle state at another root.
 */
export class CallState implements StateManagerInterface {
  private base: RootReads;
  private readonly accounts = new Map<string, Account | null>();
  private readonly storage = new Map<string, Map<string, Uint8Array>>();
  private readonly cleared = new Set<string>();
  private readonly codes = new Map<string, Uint8Array>();
  private readonly journal = new UndoLog();

  constructor(
    base: RootReads,
    private readonly keccak: (b: Uint8Array) => Uint8Array,
  ) {
    this.base = base;
  }

  /** Checkpoints open (0 when idle). */
  get depth(): number {
    return this.journal.depth;
  }

  /** Points this (idle) state at another root. */
  at(base: RootReads): void {
    if (this.journal.depth !== 0) throw new Error('CallState.at during a call');
    this.base = base;
    this.clearOverlay();
  }

  /**
   * The value each slot written since the transaction started had before its first write (runTx starts a
   * transaction with originalStorageCache.clear(); a call starts with an empty overlay): several transactions run
   * one after another on one state (a block replayed for tracing) each see their own originals.
   */
  private readonly originals = new Map<string, Uint8Array>();

  /** What the EVM asks for an original (pre-transaction) storage value: the value before the transaction's first write. */
  readonly originalStorageCache = {
    get: async (address: Address, key: Uint8Array): Promise<Uint8Array> => this.originals.get(addressKey(address) + hex(key)) ?? this.getStorage(address, key),
    clear: (): void => this.originals.clear(),
  };

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = addressKey(address);
    const own = this.accounts.get(key);
    const account = own !== undefined ? own : this.base.account(address, key);
    return account === null ? undefined : copyAccount(account);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    this.setAccount(addressKey(address), copyAccount(account));
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = addressKey(address);
    this.setAccount(key, null);
    this.setCode(key, undefined);
    this.clearSlots(key);
  }

  async modifyAccountFields(address: Address, fields: AccountFieldChanges): Promise<void> {
    await this.putAccount(address, withFields((await this.getAccount(address)) ?? new Account(), fields));
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const key = addressKey(address);
    this.setCode(key, value);
    await this.modifyAccountFields(address, { codeHash: this.keccak(value) });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = addressKey(address);
    const own = this.codes.get(key);
    if (own !== undefined) return own;
    const mine = this.accounts.get(key);
    const account = mine !== undefined ? mine : this.base.account(address, key);
    if (account === null || !account.isContract()) return EMPTY;
    return this.base.code(account.codeHash);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    if (slot.length !== 32) throw new Error('Storage key must be 32 bytes long');
    const key = addressKey(address);
    const own = this.storage.get(key)?.get(hex(slot));
    if (own !== undefined) return own;
    const mine = this.accounts.get(key);
    if (mine === null || this.cleared.has(key)) return EMPTY;
    const account = this.base.account(address, key);
    if (account === null) return EMPTY;
    return this.base.slot(account, slot, key);
  }

  async putStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    if (slot.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    const key = addressKey(address);
    if ((await this.getAccount(address)) === undefined) throw new Error('putStorage() called on non-existing account');
    const originalKey = key + hex(slot);
    if (!this.originals.has(originalKey)) this.originals.set(originalKey, await this.getStorage(address, slot));
    let i = 0;
    while (i < value.length && value[i] === 0) i++;
    const stored = value.slice(i);
    let slots = this.storage.get(key);
    if (slots === undefined) this.storage.set(key, (slots = new Map()));
    const own = slots;
    const slotKey = hex(slot);
    const had = own.has(slotKey);
    const prev = own.get(slotKey);
    own.set(slotKey, stored);
    this.log(() => (had ? own.set(slotKey, prev!) : own.delete(slotKey)));
  }

  async clearStorage(address: Address): Promise<void> {
    this.clearSlots(addressKey(address));
  }

  async checkpoint(): Promise<void> {
    this.journal.checkpoint();
  }

  async commit(): Promise<void> {
    if (this.journal.commit()) this.originals.clear();
  }

  async revert(): Promise<void> {
    if (this.journal.revert()) this.clearOverlay();
  }

  /**
   * A copy of what the writes so far hold (between transactions: the transactions' effects). Accounts, values and
   * code are shared, not copied: this state never changes them in place (it stores copies and hands out copies).
   */
  overlay(): Overlay {
    const storage = new Map<string, ReadonlyMap<string, Uint8Array>>();
    for (const [key, slots] of this.storage) storage.set(key, new Map(slots));
    return { accounts: new Map(this.accounts), storage, cleared: new Set(this.cleared), codes: new Map(this.codes) };
  }

  /**
   * Writes an overlay taken with overlay() on a state at the same root back, inside an open checkpoint (revert()
   * undoes it); nothing may have been written since the checkpoint.
   */
  restore(o: Overlay): void {
    if (this.journal.depth === 0 || this.accounts.size + this.storage.size + this.cleared.size + this.codes.size !== 0)
      throw new Error('CallState.restore needs an open checkpoint and no writes');
    for (const [key, account] of o.accounts) this.setAccount(key, account);
    for (const [key, code] of o.codes) this.setCode(key, code);
    for (const key of o.cleared) this.clearSlots(key);
    for (const [key, slots] of o.storage) {
      this.storage.set(key, new Map(slots));
      this.log(() => this.storage.delete(key));
    }
  }

  async getStateRoot(): Promise<Uint8Array> {
    if (this.accounts.size !== 0 || this.codes.size !== 0 || this.storage.size !== 0 || this.cleared.size !== 0) {
      throw new Error('the state root of a call with writes is not computed');
    }
    return this.base.root;
  }

  async setStateRoot(): Promise<void> {
    throw new Error('CallState: re-point with at()');
  }

  async hasStateRoot(): Promise<boolean> {
    throw new Error('CallState.hasStateRoot is not supported');
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    return new CallState(this.base, this.keccak);
  }

  private setAccount(key: string, account: Account | null): void {
    const had = this.accounts.has(key);
    const prev = this.accounts.get(key);
    this.accounts.set(key, account);
    this.log(() => (had ? this.accounts.set(key, prev!) : this.accounts.delete(key)));
  }

  private setCode(key: string, code: Uint8Array | undefined): void {
    const had = this.codes.has(key);
    const prev = this.codes.get(key);
    if (code === undefined) this.codes.delete(key);
    else this.codes.set(key, code);
    this.log(() => (had ? this.codes.set(key, prev!) : this.codes.delete(key)));
  }

  private clearSlots(key: string): void {
    const wasCleared = this.cleared.has(key);
    const slots = this.storage.get(key);
    this.cleared.add(key);
    this.storage.delete(key);
    this.log(() => {
      if (!wasCleared) this.cleared.delete(key);
      if (slots !== undefined) this.storage.set(key, slots);
    });
  }

  /** Records how to undo a write; without an open checkpoint a write stays until at(). */
  private log(undo: () => void): void {
    this.journal.record(undo);
  }

  /**
   * Empties the overlay. After a call's revert() the undo log has emptied it already but for `originals`; V8's
   * Map/Set clear() makes a new table even for an empty one, so only non-empty ones are cleared (~2% of a call).
   */
  private clearOverlay(): void {
    if (this.originals.size !== 0) this.originals.clear();
    if (this.accounts.size !== 0) this.accounts.clear();
    if (this.storage.size !== 0) this.storage.clear();
    if (this.cleared.size !== 0) this.cleared.clear();
    if (this.codes.size !== 0) this.codes.clear();
    this.journal.clear();
  }
}
