/**
 * Blocks and mined transactions by hash, over a chain's list of mined blocks (which grows, and is cut back
 * by a revert: `forget` then drops the blocks that left).
 * The index is brought up to head on lookup, not on append: a chain restored from a chain image
 * starts without indexing its ~10,000 transactions, and pays for it on its first lookup by hash.
 */
import type { MinedBlock } from './types.js';
import { plainHex } from '../../../hex.js';

/** The map key of a hash: its 0x-prefixed hex. */
const key = (hash: Uint8Array) => `0x${plainHex(hash)}`;

export class HashIndex {
  private readonly blocks = new Map<string, MinedBlock>();
  private readonly txs = new Map<string, { block: MinedBlock; index: number }>();
  /** How many of `mined` are indexed. */
  private indexed = 0;

  constructor(private readonly mined: readonly MinedBlock[]) {}

  block(hash: Uint8Array): MinedBlock | undefined {
    this.catchUp();
    return this.blocks.get(key(hash));
  }

  /** The block holding a mined transaction and its index there. */
  transaction(hash: Uint8Array): { block: MinedBlock; index: number } | undefined {
    this.catchUp();
    return this.txs.get(key(hash));
  }

  /** Drops blocks that left the chain (already spliced off the list), with their transactions. */
  forget(removed: readonly MinedBlock[]): void {
    for (const mined of removed) {
      if (this.blocks.get(key(mined.hash)) === mined) this.blocks.delete(key(mined.hash));
      for (const hash of mined.txHashes) if (this.txs.get(key(hash))?.block === mined) this.txs.delete(key(hash));
    }
    if (this.indexed > this.mined.length) this.indexed = this.mined.length;
  }

  private catchUp(): void {
    for (; this.indexed < this.mined.length; this.indexed++) {
      const mined = this.mined[this.indexed]!;
      this.blocks.set(key(mined.hash), mined);
      mined.txHashes.forEach((hash, index) => {
        this.txs.set(key(hash), { block: mined, index });
      });
    }
  }
}
