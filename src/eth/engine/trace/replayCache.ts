/**
 * The state between a mined block's transactions, kept for tracing: tracing transaction i of a block first runs the
 * block's system calls and transactions 0..i-1 again (run.ts); with this cache it starts from the nearest state kept
 * at or before i, a copy of the call state's writes (OverlayState.overlay: accounts, slots, cleared storage and code
 * that the block changed on top of its parent's state) and runs only the transactions after it.
 *
 * Exact by construction: a kept state is keyed by the block's hash (its header, transactions and ancestors) and the
 * parent's state root the run started from, and the chain's rules never change, so the same key always means the same
 * state. Blocks that leave the chain (a revert, reorg or reset: `blocksRemoved`) are forgotten to free their memory.
 * Bounded: at most MAX_ENTRIES accounts, slots and codes over all blocks (least recently used blocks go first), and a
 * block of many transactions keeps a state every `stride` transactions (at most KEPT_PER_BLOCK per block).
 */
import { bytesToHex } from '@ethereumjs/util';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';
import type { Overlay } from '../state/overlayState.js';

/** Accounts, slots and codes kept over all blocks, at most (~100 bytes each: shared values, own map entries). */
export const MAX_ENTRIES = 200_000;
/** States kept per block, at most: a larger block keeps one every ceil(txs / KEPT_PER_BLOCK) transactions. */
export const KEPT_PER_BLOCK = 32;

interface BlockStates {
  /** By count of transactions run: `at[j]` is the state after the system calls and transactions 0..j-1. */
  readonly at: (Overlay | undefined)[];
  readonly stride: number;
  readonly hash: string;
  entries: number;
}

const sizeOf = (o: Overlay): number => {
  let n = o.accounts.size + o.codes.size + o.cleared.size;
  for (const slots of o.storage.values()) n += slots.size;
  return n;
};

/** The kept states of one chain's blocks. */
export class ReplayCache {
  /** By block hash and parent root, least recently used first. */
  private readonly blocks = new Map<string, BlockStates>();
  private entries = 0;

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  /** The states of `block` run on the parent state at `baseRoot`. */
  of(block: MinedBlock, baseRoot: Uint8Array): BlockReplays {
    return new BlockReplays(this, block, bytesToHex(block.hash), `${bytesToHex(block.hash)}${bytesToHex(baseRoot).slice(2)}`);
  }

  /** The nearest state kept at or before `count` transactions (never 0: the system calls alone are cheap to run). */
  nearest(key: string, count: number): { count: number; overlay: Overlay } | undefined {
    const states = this.blocks.get(key);
    if (states === undefined) return undefined;
    this.blocks.delete(key);
    this.blocks.set(key, states);
    for (let j = count; j > 0; j--) {
      const overlay = states.at[j];
      if (overlay !== undefined) return { count: j, overlay };
    }
    return undefined;
  }

  /** Keeps the state after `count` transactions of a block of `txs` transactions (or not, by its stride). */
  keep(key: string, hash: string, txs: number, count: number, take: () => Overlay): void {
    let states = this.blocks.get(key);
    if (states === undefined) this.blocks.set(key, (states = { at: [], stride: Math.max(1, Math.ceil(txs / KEPT_PER_BLOCK)), hash, entries: 0 }));
    if (count <= 0 || count >= txs || count % states.stride !== 0 || states.at[count] !== undefined) return;
    const overlay = take();
    const size = sizeOf(overlay);
    states.at[count] = overlay;
    states.entries += size;
    this.entries += size;
    for (const [k, old] of this.blocks) {
      if (this.entries <= this.maxEntries || old === states) break;
      this.drop(k, old);
    }
  }

  /** Forgets the states of blocks that left the chain. */
  forget(removed: readonly MinedBlock[]): void {
    const hashes = new Set<string>(removed.map((b) => bytesToHex(b.hash)));
    for (const [k, states] of this.blocks) if (hashes.has(states.hash)) this.drop(k, states);
  }

  /** Blocks and entries kept (for tests). */
  size(): { blocks: number; states: number; entries: number } {
    let states = 0;
    for (const s of this.blocks.values()) states += s.at.filter((o) => o !== undefined).length;
    return { blocks: this.blocks.size, states, entries: this.entries };
  }

  private drop(key: string, states: BlockStates): void {
    this.blocks.delete(key);
    this.entries -= states.entries;
  }
}

/** The kept states of one block on one parent state. */
export class BlockReplays {
  constructor(
    private readonly cache: ReplayCache,
    private readonly block: MinedBlock,
    private readonly hash: string,
    private readonly key: string,
  ) {}

  nearest(count: number): { count: number; overlay: Overlay } | undefined {
    return this.cache.nearest(this.key, count);
  }

  keep(count: number, overlay: () => Overlay): void {
    this.cache.keep(this.key, this.hash, this.block.txHashes.length, count, overlay);
  }
}

const caches = new WeakMap<EthChain, ReplayCache>();

/** The replay cache of `chain`, made on first use; it forgets the blocks the chain removes. */
export function replayCacheOf(chain: EthChain): ReplayCache {
  let cache = caches.get(chain);
  if (cache === undefined) {
    const made = (cache = new ReplayCache());
    caches.set(chain, made);
    chain.events.on('blocksRemoved', (removed) => made.forget(removed));
  }
  return cache;
}
