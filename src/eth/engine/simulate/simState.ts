/**
 * The state an eth_simulateV1 request runs on: the base block's committed state, read through the reads every call
 * on that root shares (state/callState.ts RootReads: accounts, slots and code decoded once per root), under a
 * private overlay that takes the request's writes (with an undo log for the EVM's checkpoints). A simulated block's
 * state root is computed from the overlay (the whole difference from the base) with the batch trie writer over
 * the base's nodes: same nodes, same root as a MerkleStateManager that ran the same writes (simState.test.ts),
 * and nothing is ever written to the chain's node store. reset() points an idle state at another base: the VMs
 * that run simulations are reused across requests.
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { Account, type Address, KECCAK256_RLP, equalsBytes } from '@ethereumjs/util';
import type { RootReads, TrieSource } from '../state/callState.js';
import { nibbles, TrieWriter, type TrieUpdate } from '../state/trieWriter.js';
import { plainHex } from '../../../hex.js';
import { type AccountFieldChanges, withFields } from '../state/accountFields.js';
import { copyAccount, sameAccount } from '../evm/account.js';
import { UndoLog } from '../state/undoLog.js';

const hex = plainHex;
const EMPTY = new Uint8Array(0);

/** Bytes of unprefixed hex (a view of the Buffer: Uint8Array.from would copy it byte by byte through an iterator). */
function fromHex(hex: string): Uint8Array {
  const b = Buffer.from(hex, 'hex');
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

export class SimState implements StateManagerInterface {
  private base: RootReads | undefined;
  /** Accounts written (null: deleted), by address hex. */
  private readonly accounts = new Map<string, Account | null>();
  /** Slots written since the base (or since the account's storage was cleared): minimal bytes, empty for zero. */
  private readonly storage = new Map<string, Map<string, Uint8Array>>();
  /** Accounts whose storage was cleared (deleted, or wiped by a creation or an override): the base's slots are gone. */
  private readonly cleared = new Set<string>();
  private readonly codes = new Map<string, Uint8Array>();
  /**
   * Storage roots computed at the last state root, and the accounts whose storage changed since: the slots written
   * (or put back by a revert) since, or null when the storage was cleared (or a clear undone) since.
   */
  private readonly storageRoots = new Map<string, Uint8Array>();
  private readonly dirty = new Map<string, Set<string> | null>();
  /** The last state root computed (the base's at first), the accounts changed since, and the nodes made. */
  private root: Uint8Array | undefined;
  private readonly changed = new Set<string>();
  private readonly nodes = new Map<string, Uint8Array>();
  private readonly journal = new UndoLog();
  private readonly writer: TrieWriter;

  constructor(
    private readonly source: TrieSource,
    private readonly keccak: (b: Uint8Array) => Uint8Array,
  ) {
    const nodes = source.nodes;
    // The base's nodes, and the nodes of this request's roots (kept here: the chain's store never sees them).
    this.writer = new TrieWriter(
      {
        get: (key) => {
          const v = this.nodes.get(key) ?? nodes.get(key);
          return typeof v === 'string' ? fromHex(v) : v;
        },
        put: (key, encoded) => void this.nodes.set(key, encoded),
      },
      keccak,
    );
  }

  /** Checkpoints open (0 when idle). */
  get depth(): number {
    return this.journal.depth;
  }

  /** Points this (idle) state at the committed state `base`, with no writes. */
  reset(base: RootReads): void {
    if (this.journal.depth !== 0) throw new Error('SimState.reset during a simulation');
    this.base = base;
    this.accounts.clear();
    this.storage.clear();
    this.cleared.clear();
    this.codes.clear();
    this.storageRoots.clear();
    this.dirty.clear();
    this.root = undefined;
    this.changed.clear();
    this.nodes.clear();
    this.originals.clear();
    this.journal.clear();
  }

  /** Lets go of the base and the writes of the request that used this state (it may idle a long time). */
  release(): void {
    this.reset(this.base!);
    this.base = undefined;
  }

  private reads(): RootReads {
    if (this.base === undefined) throw new Error('SimState used before reset()');
    return this.base;
  }

  /** The value each slot written in the current transaction had before its first write (runTx clears it per transaction). */
  private readonly originals = new Map<string, Uint8Array>();

  readonly originalStorageCache = {
    get: async (address: Address, key: Uint8Array): Promise<Uint8Array> => this.originals.get(hex(address.bytes) + hex(key)) ?? this.getStorage(address, key),
    clear: (): void => this.originals.clear(),
  };

  private current(address: Address, key: string): Account | null {
    const own = this.accounts.get(key);
    return own !== undefined ? own : this.reads().account(address, key);
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const account = this.current(address, hex(address.bytes));
    return account === null ? undefined : copyAccount(account);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    const key = hex(address.bytes);
    // The EVM puts back most accounts as they were (a call's sender fee of 0, the coinbase's reward of 0, a
    // callee's value of 0: ~2 of 3 puts of a simulated call): no write, no account for the state root to walk to.
    if (sameAccount(this.current(address, key), account)) return;
    this.setAccount(key, copyAccount(account));
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = hex(address.bytes);
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
    this.setCode(hex(address.bytes), value);
    await this.modifyAccountFields(address, { codeHash: this.keccak(value) });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = hex(address.bytes);
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
    const key = hex(address.bytes);
    const own = this.storage.get(key)?.get(hex(slot));
    if (own !== undefined) return own;
    if (this.accounts.get(key) === null || this.cleared.has(key)) return EMPTY;
    const base = this.reads();
    const account = base.account(address, key);
    return account === null ? EMPTY : base.slot(account, slot, key);
  }

  async putStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    if (slot.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    const key = hex(address.bytes);
    if (this.current(address, key) === null) throw new Error('putStorage() called on non-existing account');
    const slotKey = hex(slot);
    const originalKey = key + slotKey;
    const current = await this.getStorage(address, slot);
    let i = 0;
    while (i < value.length && value[i] === 0) i++;
    // A write of the value the slot holds changes no root (and no original: the slot's value so far is its value
    // at the transaction's start unless an earlier write of this transaction recorded it): nothing to record, no
    // storage root to compute again. The system contracts write such values in every block (EIP-7002/7251 queues).
    if (current.length === value.length - i && equalsBytes(current, value.subarray(i))) return;
    if (!this.originals.has(originalKey)) this.originals.set(originalKey, current);
    const stored = value.slice(i);
    let slots = this.storage.get(key);
    if (slots === undefined) this.storage.set(key, (slots = new Map()));
    const own = slots;
    const had = own.has(slotKey);
    const prev = own.get(slotKey);
    own.set(slotKey, stored);
    this.dirtySlot(key, slotKey);
    this.changed.add(key);
    this.log(() => {
      this.dirtySlot(key, slotKey);
      this.changed.add(key);
      if (had) own.set(slotKey, prev!);
      else own.delete(slotKey);
    });
  }

  /** As MerkleStateManager's: the slots go, and the account's storage root is the empty trie's at once. */
  async clearStorage(address: Address): Promise<void> {
    const key = hex(address.bytes);
    this.clearSlots(key);
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
   * The state root of the base with every write so far, as MerkleStateManager's flush would make it (the last
   * root with the accounts changed since); like that flush, the accounts whose storage changed get their new
   * storage root.
   */
  async getStateRoot(): Promise<Uint8Array> {
    const base = this.reads();
    const source = this.source;
    const updates: TrieUpdate[] = [];
    for (const key of this.changed) {
      const addressBytes = fromHex(key);
      const address = { bytes: addressBytes } as Address;
      const account = this.current(address, key);
      const path = nibbles(source.hashedKey(addressBytes, key));
      if (account === null) {
        updates.push({ path, value: null });
        continue;
      }
      const storageRoot = this.storageRootOf(key, address, base);
      let own = this.accounts.get(key);
      if (own === undefined || own === null) this.accounts.set(key, (own = copyAccount(account)));
      own.storageRoot = storageRoot;
      updates.push({ path, value: own.serialize() });
    }
    this.changed.clear();
    this.root = this.writer.apply(this.root ?? base.root, updates);
    return this.root;
  }

  /**
   * The storage root of an account: the base's (or the empty trie's once cleared) with the slots written since; from
   * the last one computed with the slots changed since, unless cleared since (a request of many blocks would
   * otherwise put the system contracts' slots of every block before again in each block).
   */
  private storageRootOf(key: string, address: Address, base: RootReads): Uint8Array {
    const known = this.storageRoots.get(key);
    const changed = this.dirty.get(key);
    if (known !== undefined && changed === undefined) return known;
    if (known !== undefined && changed !== null && changed !== undefined) {
      const slots = this.storage.get(key);
      const baseAccount = this.cleared.has(key) ? null : base.account(address, key);
      const updates: TrieUpdate[] = [];
      for (const slotKey of changed) {
        const slot = fromHex(slotKey);
        // A slot a revert put back holds the base's value again (none once the storage was cleared).
        const value = slots?.get(slotKey) ?? (baseAccount === null ? EMPTY : base.slot(baseAccount, slot, key));
        updates.push({ path: nibbles(this.source.hashedKey(slot, slotKey)), value: value.length === 0 ? null : RLP.encode(value) });
      }
      const root = this.writer.apply(known, updates);
      this.storageRoots.set(key, root);
      this.dirty.delete(key);
      return root;
    }
    const baseAccount = this.cleared.has(key) ? null : base.account(address, key);
    const start = baseAccount === null ? KECCAK256_RLP : baseAccount.storageRoot;
    const slots = this.storage.get(key);
    let root = start;
    if (slots !== undefined && slots.size > 0) {
      const updates: TrieUpdate[] = [];
      for (const [slotKey, value] of slots) {
        const slot = fromHex(slotKey);
        updates.push({ path: nibbles(this.source.hashedKey(slot, slotKey)), value: value.length === 0 ? null : RLP.encode(value) });
      }
      root = this.writer.apply(start, updates);
    }
    this.storageRoots.set(key, root);
    this.dirty.delete(key);
    return root;
  }

  async setStateRoot(): Promise<void> {
    throw new Error('SimState: point it at a base with reset()');
  }

  async hasStateRoot(): Promise<boolean> {
    throw new Error('SimState.hasStateRoot is not supported');
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    throw new Error('SimState.shallowCopy is not supported');
  }

  private setAccount(key: string, account: Account | null): void {
    const had = this.accounts.has(key);
    const prev = this.accounts.get(key);
    this.accounts.set(key, account);
    this.changed.add(key);
    this.log(() => {
      this.changed.add(key);
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

  private dirtySlot(key: string, slotKey: string): void {
    const slots = this.dirty.get(key);
    if (slots === undefined) this.dirty.set(key, new Set([slotKey]));
    else if (slots !== null) slots.add(slotKey);
  }

  private clearSlots(key: string): void {
    const wasCleared = this.cleared.has(key);
    const slots = this.storage.get(key);
    this.cleared.add(key);
    this.storage.delete(key);
    this.dirty.set(key, null);
    this.changed.add(key);
    this.log(() => {
      this.dirty.set(key, null);
      this.changed.add(key);
      if (!wasCleared) this.cleared.delete(key);
      if (slots !== undefined) this.storage.set(key, slots);
    });
  }

  /** Records how to undo a write; a write made with no checkpoint open stays until reset(). */
  private log(undo: () => void): void {
    this.journal.record(undo);
  }
}
