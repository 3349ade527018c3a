/**
 * The committed state at one block's root, as every call and simulation on that root reads it (state/overlayState.ts
 * puts each one's writes over it): accounts and slots read from the trie once and kept (a root never changes, so
 * neither does what it holds), shared by all of them, never written.
 */
import { RLP } from '@ethereumjs/rlp';
import { type Account, type Address, createAccountFromRLP } from '@ethereumjs/util';
import { trieGet, type NodeStore } from './trieRead.js';
import { plainHex } from '../../../hex.js';

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
