/**
 * The state roots of an overlay (state/overlayState.ts) that eth_simulateV1 asks for at each simulated block's end:
 * the base's root with the whole difference the overlay holds, computed with the batch trie writer over the base's
 * nodes: same nodes, same root as a MerkleStateManager that ran the same writes (test/eth/engine/simulate/simState.test.ts),
 * and nothing is ever written to the chain's node store. The overlay tells it each account and slot it writes (and
 * each one a revert puts back), so each root walks only to what changed since the last.
 */
import { RLP } from '@ethereumjs/rlp';
import { type Account, type Address, KECCAK256_RLP } from '@ethereumjs/util';
import { copyAccount } from '../evm/account.js';
import type { RootReads, TrieSource } from './rootReads.js';
import { nibbles, TrieWriter, type TrieUpdate } from './trieWriter.js';
import { plainHexView } from '../../../hex.js';

const EMPTY = new Uint8Array(0);

/** What OverlayRoots reads of its overlay (by address key: plain hex of the address; slot keys plain hex too). */
export interface OverlayView {
  /** Accounts written (null: deleted); a root puts the account's new storage root into its own entry. */
  readonly accounts: Map<string, Account | null>;
  readonly storage: ReadonlyMap<string, ReadonlyMap<string, Uint8Array>>;
  readonly cleared: ReadonlySet<string>;
  /** The account as the overlay holds it (null: none). */
  current(address: Address, key: string): Account | null;
  reads(): RootReads;
}

export class OverlayRoots {
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
  private readonly writer: TrieWriter;

  constructor(
    private readonly source: TrieSource,
    keccak: (b: Uint8Array) => Uint8Array,
  ) {
    const nodes = source.nodes;
    // The base's nodes, and the nodes of this request's roots (kept here: the chain's store never sees them).
    this.writer = new TrieWriter(
      {
        get: (key) => {
          const v = this.nodes.get(key) ?? nodes.get(key);
          return typeof v === 'string' ? plainHexView(v) : v;
        },
        put: (key, encoded) => void this.nodes.set(key, encoded),
      },
      keccak,
    );
  }

  /** Forgets everything (the overlay was pointed at another base). */
  reset(): void {
    this.storageRoots.clear();
    this.dirty.clear();
    this.root = undefined;
    this.changed.clear();
    this.nodes.clear();
  }

  /** The account at `key` was written (or put back). */
  accountChanged(key: string): void {
    this.changed.add(key);
  }

  /** A slot of the account at `key` was written (or put back). */
  slotChanged(key: string, slotKey: string): void {
    const slots = this.dirty.get(key);
    if (slots === undefined) this.dirty.set(key, new Set([slotKey]));
    else if (slots !== null) slots.add(slotKey);
    this.changed.add(key);
  }

  /** The storage of the account at `key` was cleared (or a clear undone). */
  storageCleared(key: string): void {
    this.dirty.set(key, null);
    this.changed.add(key);
  }

  /**
   * The state root of the base with every write so far, as MerkleStateManager's flush would make it (the last
   * root with the accounts changed since); like that flush, the accounts whose storage changed get their new
   * storage root.
   */
  stateRoot(overlay: OverlayView): Uint8Array {
    const base = overlay.reads();
    const source = this.source;
    const updates: TrieUpdate[] = [];
    for (const key of this.changed) {
      const addressBytes = plainHexView(key);
      const address = { bytes: addressBytes } as Address;
      const account = overlay.current(address, key);
      const path = nibbles(source.hashedKey(addressBytes, key));
      if (account === null) {
        updates.push({ path, value: null });
        continue;
      }
      const storageRoot = this.storageRootOf(overlay, key, address, base);
      let own = overlay.accounts.get(key);
      if (own === undefined || own === null) overlay.accounts.set(key, (own = copyAccount(account)));
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
  private storageRootOf(overlay: OverlayView, key: string, address: Address, base: RootReads): Uint8Array {
    const known = this.storageRoots.get(key);
    const changed = this.dirty.get(key);
    if (known !== undefined && changed === undefined) return known;
    if (known !== undefined && changed !== null && changed !== undefined) {
      const slots = overlay.storage.get(key);
      const baseAccount = overlay.cleared.has(key) ? null : base.account(address, key);
      const updates: TrieUpdate[] = [];
      for (const slotKey of changed) {
        const slot = plainHexView(slotKey);
        // A slot a revert put back holds the base's value again (none once the storage was cleared).
        const value = slots?.get(slotKey) ?? (baseAccount === null ? EMPTY : base.slot(baseAccount, slot, key));
        updates.push({ path: nibbles(this.source.hashedKey(slot, slotKey)), value: value.length === 0 ? null : RLP.encode(value) });
      }
      const root = this.writer.apply(known, updates);
      this.storageRoots.set(key, root);
      this.dirty.delete(key);
      return root;
    }
    const baseAccount = overlay.cleared.has(key) ? null : base.account(address, key);
    const start = baseAccount === null ? KECCAK256_RLP : baseAccount.storageRoot;
    const slots = overlay.storage.get(key);
    let root = start;
    if (slots !== undefined && slots.size > 0) {
      const updates: TrieUpdate[] = [];
      for (const [slotKey, value] of slots) {
        const slot = plainHexView(slotKey);
        updates.push({ path: nibbles(this.source.hashedKey(slot, slotKey)), value: value.length === 0 ? null : RLP.encode(value) });
      }
      root = this.writer.apply(start, updates);
    }
    this.storageRoots.set(key, root);
    this.dirty.delete(key);
    return root;
  }
}
