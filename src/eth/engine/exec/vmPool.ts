/**
 * Reused VMs and read-only states per block, so eth_call and state reads skip building a VM (its
 * opcode table, a Common copy) and a state copy on every request. A VM is leased to one call at a
 * time (concurrent calls on a block get VMs of their own), and a call must undo its writes with
 * checkpoint()/revert(); a VM that comes back with a checkpoint still open is dropped, not reused.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { MinedBlock } from '../chain/types.js';
import { openCheckpoints } from '../evm/merkleState.js';

/** A map that forgets its least recently used entry past `capacity`. */
export class Lru<K, V> {
  private readonly entries = new Map<K, V>();
  /** The most recently used key, already last in `entries`: using it again moves nothing (a pool of one key). */
  private newest: K | undefined;
  private hasNewest = false;

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined && !(this.hasNewest && this.newest === key)) {
      this.entries.delete(key);
      this.entries.set(key, value);
      this.newest = key;
      this.hasNewest = true;
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    this.hasNewest = true;
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
      if (oldest === key) this.hasNewest = false;
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
    if (this.hasNewest && this.newest === key) this.hasNewest = false;
  }

  values(): IterableIterator<V> {
    return this.entries.values();
  }
}

export interface VmPoolOptions<T extends object = VM> {
  /** A new VM at a block's post-state. */
  readonly create: (block: MinedBlock) => Promise<T>;
  /** Blocks whose VMs may serve each other (same rules); default: the block hash, each block its own. */
  readonly key?: (block: MinedBlock) => string;
  /** The state root a block's VM must be at (default: the header's); a VM is re-pointed whenever it differs. */
  readonly rootOf?: (block: MinedBlock) => Uint8Array;
  /** Points an idle VM of the same key at another block's post-state. */
  readonly retarget?: (vm: T, block: MinedBlock) => void | Promise<void>;
  /** Whether a VM that comes back may serve again; default: its state has no checkpoint open. */
  readonly reusable?: (vm: T) => boolean;
  /** Keys kept (least recently used first out), and idle VMs kept per key. */
  readonly maxKeys?: number;
  readonly maxPerKey?: number;
}

/** Idle VMs of the most recently used keys (by default blocks), a few per key. */
export class VmPool<T extends object = VM> {
  private readonly idle: Lru<string, T[]>;
  /** The state root each VM's state is at (the very array `rootOf` gave). */
  private readonly at = new WeakMap<T, Uint8Array>();
  private readonly maxPerKey: number;

  constructor(private readonly opts: VmPoolOptions<T>) {
    this.idle = new Lru(opts.maxKeys ?? 16);
    this.maxPerKey = opts.maxPerKey ?? 4;
  }

  /** Runs `fn` with a VM at `block`'s post-state that no other call uses meanwhile. */
  async use<R>(block: MinedBlock, fn: (vm: T) => Promise<R>): Promise<R> {
    const key = this.opts.key?.(block) ?? bytesToHex(block.hash);
    const root = this.opts.rootOf?.(block) ?? block.header.stateRoot;
    let vm = this.idle.get(key)?.pop();
    if (vm === undefined) this.at.set((vm = await this.opts.create(block)), root);
    else if (this.at.get(vm) !== root) {
      await this.opts.retarget!(vm, block);
      this.at.set(vm, root);
    }
    try {
      return await fn(vm);
    } finally {
      this.release(key, vm);
    }
  }

  /** How many idle VMs are kept (for tests). */
  idleCount(): number {
    let n = 0;
    for (const list of this.idle.values()) n += list.length;
    return n;
  }

  private release(key: string, vm: T): void {
    const reusable = this.opts.reusable ?? ((v: T) => openCheckpoints((v as unknown as VM).stateManager) === 0);
    if (!reusable(vm)) return;
    let list = this.idle.get(key);
    if (list === undefined) this.idle.set(key, (list = []));
    if (list.length < this.maxPerKey) list.push(vm);
  }
}

/** Read-only states of the most recently used blocks (never written to, so any number of reads may share one). */
export class ReadStates {
  private readonly states: Lru<string, Promise<MerkleStateManager>>;

  constructor(
    private readonly create: (block: MinedBlock) => Promise<MerkleStateManager>,
    /** The state root of a block as reads see it: states are kept by root, so an edited head gets its own. */
    private readonly rootOf: (block: MinedBlock) => Uint8Array = (block) => block.header.stateRoot,
    maxBlocks = 32,
  ) {
    this.states = new Lru(maxBlocks);
  }

  at(block: MinedBlock): Promise<MerkleStateManager> {
    const key = bytesToHex(this.rootOf(block));
    let state = this.states.get(key);
    if (state === undefined) {
      state = this.create(block);
      this.states.set(key, state);
      state.catch(() => this.states.delete(key));
    }
    return state;
  }
}
