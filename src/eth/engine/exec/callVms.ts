/**
 * VMs for eth_call: each runs on an OverlayState (state/overlayState.ts) over the shared reads of its block's
 * root, with the interpreter's per-frame costs cut (evmFastPath/). Pooled like the chain's other VMs
 * (vmPool.ts): a VM is leased to one call at a time and re-pointed at another root by swapping the
 * reads its state falls through to, which costs nothing (no trie copy, no cache to drop).
 */
import type { Common } from '@ethereumjs/common';
import { bytesToHex } from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';
import type { ChainView } from '../chain/chainView.js';
import { OverlayState } from '../state/overlayState.js';
import { RootReads, type ReadsBudget, type TrieSource } from '../state/rootReads.js';
import { speedUpInterpreter } from '../evm/index.js';
import type { NodeStore } from '../state/trieRead.js';
import type { MinedBlock } from '../chain/types.js';
import { Lru } from './vmPool.js';
import { hexBytes, plainHex } from '../../../hex.js';

/** What CallVms needs of its chain. */
export interface CallVmsSource {
  /** The chain's node store (trie nodes by hash, code by 'c' + code hash or by code hash). */
  readonly nodes: NodeStore;
  /** Whether code is stored under 'c' + code hash (MerkleStateManager's prefixCodeHashes). */
  readonly prefixCodeHashes: boolean;
  readonly keccak: (b: Uint8Array) => Uint8Array;
  readonly view: ChainView;
  /** The Common of a block (a copy the VM may own). */
  readonly commonAt: (block: MinedBlock) => Common;
  /** The state root of a block's post-state as reads see it (default: the header's). */
  readonly rootOf?: (block: MinedBlock) => Uint8Array;
}

/** Roots whose reads are kept, at most (a few hundred bytes each when idle). */
const MAX_ROOTS = 4096;
/** Accounts and slots kept over all roots, at most (~250 bytes each): older roots go first. */
const MAX_ENTRIES = 32_768;
/** keccak256 hashes of addresses and slots kept (pure: never wrong, only bounded). */
const MAX_HASHES = 8192;

/**
 * Shared reads of recently called roots, and the code of every code hash met, for call VMs. A root's
 * reads stay while the budget allows (a state root never changes, so neither do its accounts and
 * slots): calls at random historical blocks find the accounts every call reads already decoded.
 */
export class CallVms implements TrieSource {
  /** By root, least recently used first. */
  private readonly roots = new Map<string, RootReads>();
  private readonly budget: ReadsBudget = { entries: 0 };
  private readonly codes = new Lru<string, Uint8Array>(256);
  private hashes = new Map<string, Uint8Array>();
  /** The map key of each state root array met (headers keep theirs: no hex per call). */
  private readonly rootKeys = new WeakMap<Uint8Array, string>();
  /** Code by code hash array: accounts of the shared reads hand out the same array on every call. */
  private readonly codeByHash = new WeakMap<Uint8Array, Uint8Array>();
  readonly nodes: NodeStore;
  private readonly keccak: (b: Uint8Array) => Uint8Array;

  constructor(
    private readonly source: CallVmsSource,
    private readonly limits = { maxRoots: MAX_ROOTS, maxEntries: MAX_ENTRIES },
  ) {
    this.nodes = source.nodes;
    this.keccak = source.keccak;
  }

  /** The shared reads of `block`'s post-state root. */
  readsAt(block: MinedBlock): RootReads {
    // A restored block's raw fields give the root without decoding its header as @ethereumjs objects.
    const root = this.source.rootOf?.(block) ?? (block.raw?.header ?? block.header).stateRoot;
    let key = this.rootKeys.get(root);
    if (key === undefined) this.rootKeys.set(root, (key = bytesToHex(root)));
    let reads = this.roots.get(key);
    if (reads !== undefined) this.roots.delete(key);
    else reads = new RootReads(this, root, this.budget);
    this.roots.set(key, reads);
    if (this.roots.size > this.limits.maxRoots || this.budget.entries > this.limits.maxEntries) this.evictFor(reads);
    return reads;
  }

  /** Lets go of the least recently used roots (never `keep`) until the bounds hold. */
  private evictFor(keep: RootReads): void {
    for (const [key, old] of this.roots) {
      if (old === keep || (this.roots.size <= this.limits.maxRoots && this.budget.entries <= this.limits.maxEntries)) return;
      old.retire();
      this.roots.delete(key);
    }
  }

  /** Roots kept and their entries (for tests). */
  cached(): { roots: number; entries: number } {
    return { roots: this.roots.size, entries: this.budget.entries };
  }

  hashedKey(bytes: Uint8Array, key: string): Uint8Array {
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      if (this.hashes.size >= MAX_HASHES) this.hashes = new Map();
      this.hashes.set(key, (hash = this.keccak(bytes)));
    }
    return hash;
  }

  /** A new call VM at `block`'s post-state. */
  async create(block: MinedBlock): Promise<VM> {
    const stateManager = new OverlayState(this.keccak, this.readsAt(block));
    const vm = await createVM({ common: this.source.commonAt(block), stateManager: stateManager as never, blockchain: this.source.view });
    speedUpInterpreter(vm.evm);
    return vm;
  }

  /** Points an idle call VM at `block`'s post-state. */
  retarget(vm: VM, block: MinedBlock): void {
    (vm.stateManager as unknown as OverlayState).at(this.readsAt(block));
  }

  /** Whether a VM that comes back may serve again (no checkpoint left open). */
  reusable(vm: VM): boolean {
    const state = vm.stateManager as unknown as OverlayState;
    return state.depth === 0 && !state.written();
  }

  code(codeHash: Uint8Array): Uint8Array {
    const known = this.codeByHash.get(codeHash);
    if (known !== undefined) return known;
    const key = plainHex(codeHash);
    let code = this.codes.get(key);
    if (code === undefined) {
      // MerkleStateManager's CODEHASH_PREFIX is 'c' (0x63).
      const stored = this.nodes.get(this.source.prefixCodeHashes ? '63' + key : key);
      code = stored === undefined ? new Uint8Array() : typeof stored === 'string' ? hexBytes(stored) : stored;
      this.codes.set(key, code);
    }
    this.codeByHash.set(codeHash, code);
    return code;
  }
}
