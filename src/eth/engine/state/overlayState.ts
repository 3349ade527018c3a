/**
 * The state a call, an estimate, a trace's replay or an eth_simulateV1 request runs on: the committed state at one
 * block's root, read through the reads every user of that root shares (state/rootReads.ts), under a private overlay
 * that takes the run's writes, with an undo log for the EVM's checkpoints. Nothing ever reaches the shared reads or
 * the chain, so a run can change nothing another run sees. An overlay made with a TrieSource also computes state
 * roots (state/overlayRoots.ts: eth_simulateV1's blocks); one made without is for calls, whose roots are never asked
 * for. `at()` points an idle overlay at another root: the VMs that run on overlays are reused.
 *
 * A write made with no checkpoint open stays until at() (a simulated block's system calls and rewards). A call's
 * writes are all made inside the checkpoint its caller reverts, so the overlay is empty again after it (`written()`:
 * the call-VM pool reuses only such VMs).
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import { Account, type Address, KECCAK256_RLP, equalsBytes } from '@ethereumjs/util';
import { plainHex } from '../../../hex.js';
import { copyAccount, sameAccount } from '../evm/account.js';
import { type AccountFieldChanges, withFields } from './accountFields.js';
import { OverlayRoots, type OverlayView } from './overlayRoots.js';
import { addressKey, type RootReads, type TrieSource } from './rootReads.js';
import { UndoLog } from './undoLog.js';

const hex = plainHex;
const EMPTY = new Uint8Array(0);

/** A copy of an overlay's writes (accounts, storage, cleared storage, code by address key), for `restore`. */
export interface Overlay {
  readonly accounts: ReadonlyMap<string, Account | null>;
  readonly storage: ReadonlyMap<string, ReadonlyMap<string, Uint8Array>>;
  readonly cleared: ReadonlySet<string>;
  readonly codes: ReadonlyMap<string, Uint8Array>;
}

export class OverlayState implements StateManagerInterface {
  private base: RootReads | undefined;
  /** Accounts written (null: deleted), by address key (plain hex). */
  private readonly accounts = new Map<string, Account | null>();
  /** Slots written since the base (or since the account's storage was cleared): minimal bytes, empty for zero. */
  private readonly storage = new Map<string, Map<string, Uint8Array>>();
  /** Accounts whose storage was cleared (deleted, or wiped by a creation or an override): the base's slots are gone. */
  private readonly cleared = new Set<string>();
  private readonly codes = new Map<string, Uint8Array>();
  private readonly journal = new UndoLog();
  /** The state roots of the writes (simulations only). */
  private readonly roots: OverlayRoots | undefined;
  private readonly view: OverlayView;

  /**
   * An overlay on `base` (or on none until at()); given `rootsOver` (the base's nodes), it computes state roots.
   */
  constructor(
    private readonly keccak: (b: Uint8Array) => Uint8Array,
    base?: RootReads,
    rootsOver?: TrieSource,
  ) {
    this.base = base;
    this.roots = rootsOver === undefined ? undefined : new OverlayRoots(rootsOver, keccak);
    this.view = { accounts: this.accounts, storage: this.storage, cleared: this.cleared, current: (a, k) => this.current(a, k), reads: () => this.reads() };
  }

  /** Checkpoints open (0 when idle). */
  get depth(): number {
    return this.journal.depth;
  }

  /** Whether the overlay holds writes (an idle call VM's holds none). */
  written(): boolean {
    return this.accounts.size !== 0 || this.storage.size !== 0 || this.cleared.size !== 0 || this.codes.size !== 0;
  }

  /** Points this (idle) state at the committed state `base`, with no writes. */
  at(base: RootReads): void {
    if (this.journal.depth !== 0) throw new Error('OverlayState.at during a run');
    this.base = base;
    this.clearOverlay();
    this.roots?.reset();
  }

  /** Lets go of the base and the writes of the run that used this state (it may idle a long time). */
  release(): void {
    if (this.journal.depth !== 0) throw new Error('OverlayState.release during a run');
    this.clearOverlay();
    this.roots?.reset();
    this.base = undefined;
  }

  private reads(): RootReads {
    if (this.base === undefined) throw new Error('OverlayState used before at()');
    return this.base;
  }

  /**
   * The value each slot written since the transaction started had before its first write (runTx starts a
   * transaction with originalStorageCache.clear(); a call starts with an empty overlay): several transactions run
   * one after another on one state (a block replayed for tracing, a simulated block) each see their own originals.
   */
  private readonly originals = new Map<string, Uint8Array>();

  /** What the EVM asks for an original (pre-transaction) storage value: the value before the transaction's first write. */
  readonly originalStorageCache = {
    get: async (address: Address, key: Uint8Array): Promise<Uint8Array> => this.originals.get(addressKey(address) + hex(key)) ?? this.getStorage(address, key),
    clear: (): void => this.originals.clear(),
  };

  private current(address: Address, key: string): Account | null {
    const own = this.accounts.get(key);
    return own !== undefined ? own : this.reads().account(address, key);
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const account = this.current(address, addressKey(address));
    return account === null ? undefined : copyAccount(account);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    const key = addressKey(address);
    // The EVM puts back most accounts as they were (a call's sender fee of 0, the coinbase's reward of 0, a
    // callee's value of 0: ~2 of 3 puts of a simulated call): no write, no account for a state root to walk to.
    if (sameAccount(this.current(address, key), account)) return;
    this.setAccount(key, copyAccount(account));
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = addressKey(address);
    // Deleting an account that is not there (the system address after each system call) changes nothing.
    if (this.current(address, key) === null && !this.codes.has(key) && !this.storage.has(key)) return;
    this.setAccount(key, null);
    this.setCode(key, undefined);
    this.clearSlots(key);
  }

  async modifyAccountFields(address: Address, fields: AccountFieldChanges): Promise<void> {
    await this.putAccount(address, withFields((await this.getAccount(address)) ?? new Account(), fields));
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    this.setCode(addressKey(address), value);
    await this.modifyAccountFields(address, { codeHash: this.keccak(value) });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = addressKey(address);
    const own = this.codes.get(key);
    if (own !== undefined) return own;
    const account = this.current(address, key);
    if (account === null || !account.isContract()) return EMPTY;
    return this.reads().code(account.codeHash);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    if (slot.length !== 32) throw new Error('Storage key must be 32 bytes long');
    return this.slotValue(address, addressKey(address), slot, hex(slot));
  }

  private slotValue(address: Address, key: string, slot: Uint8Array, slotKey: string): Uint8Array {
    const own = this.storage.get(key)?.get(slotKey);
    if (own !== undefined) return own;
    if (this.accounts.get(key) === null || this.cleared.has(key)) return EMPTY;
    const base = this.reads();
    const account = base.account(address, key);
    return account === null ? EMPTY : base.slot(account, slot, key);
  }

  async putStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    if (slot.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    const key = addressKey(address);
    if (this.current(address, key) === null) throw new Error('putStorage() called on non-existing account');
    const slotKey = hex(slot);
    const current = this.slotValue(address, key, slot, slotKey);
    let i = 0;
    while (i < value.length && value[i] === 0) i++;
    // A write of the value the slot holds changes nothing (and no original: the slot's value so far is its value
    // at the transaction's start unless an earlier write of this transaction recorded it): nothing to record, no
    // storage root to compute again. The system contracts write such values in every block (EIP-7002/7251 queues).
    if (current.length === value.length - i && equalsBytes(current, value.subarray(i))) return;
    const originalKey = key + slotKey;
    if (!this.originals.has(originalKey)) this.originals.set(originalKey, current);
    const stored = value.slice(i);
    let slots = this.storage.get(key);
    const created = slots === undefined;
    if (slots === undefined) this.storage.set(key, (slots = new Map()));
    const own = slots;
    const had = own.has(slotKey);
    const prev = own.get(slotKey);
    own.set(slotKey, stored);
    const roots = this.roots;
    roots?.slotChanged(key, slotKey);
    this.log(() => {
      roots?.slotChanged(key, slotKey);
      if (had) own.set(slotKey, prev!);
      else own.delete(slotKey);
      // The map this write made goes with it: a reverted call leaves the overlay empty (written() is false).
      if (created && own.size === 0 && this.storage.get(key) === own) this.storage.delete(key);
    });
  }

  /**
   * The slots go. Where state roots are computed, the account's storage root is the empty trie's at once, as
   * MerkleStateManager's clearStorage makes it (a call keeps no storage roots: its accounts keep the base's).
   */
  async clearStorage(address: Address): Promise<void> {
    const key = addressKey(address);
    this.clearSlots(key);
    if (this.roots === undefined) return;
    const account = (await this.getAccount(address)) ?? new Account();
    account.storageRoot = KECCAK256_RLP;
    this.setAccount(key, account);
  }

  async checkpoint(): Promise<void> {
    this.journal.checkpoint();
  }

  async commit(): Promise<void> {
    if (this.journal.commit()) this.originals.clear();
  }

  async revert(): Promise<void> {
    if (this.journal.revert()) this.originals.clear();
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
    if (this.journal.depth === 0 || this.written()) throw new Error('OverlayState.restore needs an open checkpoint and no writes');
    for (const [key, account] of o.accounts) this.setAccount(key, account);
    for (const [key, code] of o.codes) this.setCode(key, code);
    for (const key of o.cleared) this.clearSlots(key);
    for (const [key, slots] of o.storage) {
      this.storage.set(key, new Map(slots));
      for (const slotKey of slots.keys()) this.roots?.slotChanged(key, slotKey);
      this.log(() => {
        this.storage.delete(key);
        for (const slotKey of slots.keys()) this.roots?.slotChanged(key, slotKey);
      });
    }
  }

  /**
   * The state root of the base with every write so far (state/overlayRoots.ts); a call's overlay (no roots) answers
   * the base's while it holds no writes.
   */
  async getStateRoot(): Promise<Uint8Array> {
    if (this.roots !== undefined) return this.roots.stateRoot(this.view);
    if (this.written()) throw new Error('the state root of a call with writes is not computed');
    return this.reads().root;
  }

  async setStateRoot(): Promise<void> {
    throw new Error('OverlayState: point it at a base with at()');
  }

  async hasStateRoot(): Promise<boolean> {
    throw new Error('OverlayState.hasStateRoot is not supported');
  }

  clearCaches(): void {}

  /** A state on the same base without writes (nor roots). */
  shallowCopy(): StateManagerInterface {
    return new OverlayState(this.keccak, this.base);
  }

  private setAccount(key: string, account: Account | null): void {
    const had = this.accounts.has(key);
    const prev = this.accounts.get(key);
    this.accounts.set(key, account);
    const roots = this.roots;
    roots?.accountChanged(key);
    this.log(() => {
      roots?.accountChanged(key);
      if (had) this.accounts.set(key, prev!);
      else this.accounts.delete(key);
    });
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
    const roots = this.roots;
    roots?.storageCleared(key);
    this.log(() => {
      roots?.storageCleared(key);
      if (!wasCleared) this.cleared.delete(key);
      if (slots !== undefined) this.storage.set(key, slots);
    });
  }

  /** Records how to undo a write; a write made with no checkpoint open stays until at(). */
  private log(undo: () => void): void {
    this.journal.record(undo);
  }

  /**
   * Empties the overlay. V8's Map/Set clear() makes a new table even for an empty one, so only non-empty ones are
   * cleared (~2% of a call).
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
