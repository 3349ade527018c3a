/**
 * Snapshots of a rollup network, with hardhat's semantics (evm_snapshot / evm_revert): `take` answers an
 * id (0, 1, ...); `revert(id)` puts back the blocks, their statuses, the state (pending edits and mints
 * too), the pending transactions, the chain time and the gas prices, deletes that snapshot and every
 * later one, and answers true; an unknown id answers false and changes nothing. `restart` goes back to
 * the chain as served at start and forgets every snapshot (starknet-devnet's devnet_restart).
 *
 * Blocks, states and transactions never change once sealed (only a block's status and L1 anchor move),
 * so a snapshot is the block array (pointers), each block's status and the positions in the journals of
 * the block and transaction indexes (src/rollup/engine/journal.ts): a revert undoes only what changed
 * since, nothing is copied deeply, hashed or encoded. The journals record only while a snapshot is kept;
 * `restart` goes back to a full copy of the indexes taken at start. What the clock drives (interval sealing, the time rule of L1 acceptance) keeps
 * following the clock after a revert, as hardhat's interval mining does.
 */
import type { RollupChain, RollupMark } from './chain.js';
import type { SealedBlock } from './types.js';

interface Snapshot {
  readonly mark: RollupMark;
  /**
   * Statuses then: the chain's first `l1Count` blocks were ACCEPTED_ON_L1 (acceptance covers ancestors, and they
   * stay so), the rest ACCEPTED_ON_L2; rejected blocks never change again. Under the `blocks` L1 rule, the L1
   * anchors of the ACCEPTED_ON_L2 ones (no other rule sets anchors).
   */
  readonly l1Count: number;
  readonly anchors?: readonly (bigint | undefined)[];
}

export class RollupSnapshots {
  private readonly taken = new Map<bigint, Snapshot>();
  private nextId = 0n;
  /** The chain as served at start. */
  private readonly initial: Snapshot;

  constructor(private readonly chain: RollupChain) {
    this.initial = this.capture(true);
  }

  /** Takes a snapshot; answers its id. */
  take(): bigint {
    const id = this.nextId++;
    this.taken.set(id, this.capture(false));
    return id;
  }

  /**
   * Reverts to snapshot `id` and deletes it and every later one; false (and nothing changed) for an
   * unknown id. Answers the blocks the revert forgot (sealed or rejected after the snapshot).
   */
  revert(id: bigint): SealedBlock[] | false {
    const snap = this.taken.get(id);
    if (snap === undefined) return false;
    for (const later of [...this.taken.keys()]) if (later >= id) this.taken.delete(later);
    const forgotten = this.restore(snap);
    if (this.taken.size === 0) this.chain.stopJournals();
    return forgotten;
  }

  /** Goes back to the chain as served at start and forgets every snapshot; answers the blocks forgotten. */
  restart(): SealedBlock[] {
    this.taken.clear();
    return this.restore(this.initial);
  }

  /** Forgets every snapshot (a loaded dump replaced the chain); `restart` still goes back to the chain as served at start. */
  forget(): void {
    this.taken.clear();
    this.chain.stopJournals();
  }

  /** How many snapshots are kept. */
  get size(): number {
    return this.taken.size;
  }

  /** A snapshot of the chain as it answers now (the clock's due work done first); `full` copies the indexes. */
  private capture(full: boolean): Snapshot {
    this.chain.head();
    const mark = this.chain.mark(full);
    const blocks = mark.blocks;
    let [lo, hi] = [0, blocks.length]; // the first ACCEPTED_ON_L2 block, by bisection
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (blocks[mid]!.status === 'ACCEPTED_ON_L1') lo = mid + 1;
      else hi = mid;
    }
    const anchors = this.chain.config.l1Acceptance.kind === 'blocks' ? blocks.slice(lo).map((b) => b.l1Anchor) : undefined;
    return { mark, l1Count: lo, ...(anchors === undefined ? {} : { anchors }) };
  }

  /** Puts a snapshot back; statuses changed since are the blocks accepted after the first `l1Count` and a rejected suffix. */
  private restore(snap: Snapshot): SealedBlock[] {
    const forgotten = this.chain.rewind(snap.mark);
    const left = forgotten.filter((b) => b.status !== 'REJECTED'); // rejected ones were reported when rejected
    if (left.length > 0) this.chain.events.emit('blocksReverted', left);
    const blocks = snap.mark.blocks;
    for (let i = snap.l1Count; i < blocks.length && blocks[i]!.status === 'ACCEPTED_ON_L1'; i++) blocks[i]!.status = 'ACCEPTED_ON_L2';
    for (let i = blocks.length - 1; i >= snap.l1Count && blocks[i]!.status === 'REJECTED'; i--) blocks[i]!.status = 'ACCEPTED_ON_L2';
    snap.anchors?.forEach((anchor, i) => {
      blocks[snap.l1Count + i]!.l1Anchor = anchor;
    });
    return forgotten;
  }
}
