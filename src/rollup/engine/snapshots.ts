/**
 * Snapshots of a rollup network, with hardhat's semantics (evm_snapshot / evm_revert): `take` answers an
 * id (0, 1, ...); `revert(id)` puts back the blocks, their statuses, the state (pending edits and mints
 * too), the pending transactions, the chain time and the gas prices, deletes that snapshot and every
 * later one, and answers true; an unknown id answers false and changes nothing. `restart` goes back to
 * the chain as served at start and forgets every snapshot (starknet-devnet's devnet_restart).
 *
 * Blocks, states and transactions never change once sealed (only a block's status and L1 anchor move),
 * so a snapshot is the chain's containers copied as pointers plus each block's status: nothing is
 * hashed or encoded. What the clock drives (interval sealing, the time rule of L1 acceptance) keeps
 * following the clock after a revert, as hardhat's interval mining does.
 */
import type { RollupChain, RollupMark } from './chain.js';
import type { BlockStatus, SealedBlock } from './types.js';

interface Snapshot {
  readonly mark: RollupMark;
  /** Every block the snapshot knows (the chain's and rejected ones) with its status and L1 anchor then. */
  readonly statuses: readonly (readonly [SealedBlock, BlockStatus, bigint | undefined])[];
}

export class RollupSnapshots {
  private readonly taken = new Map<bigint, Snapshot>();
  private nextId = 0n;
  /** The chain as served at start. */
  private readonly initial: Snapshot;

  constructor(private readonly chain: RollupChain) {
    this.initial = this.capture();
  }

  /** Takes a snapshot; answers its id. */
  take(): bigint {
    const id = this.nextId++;
    this.taken.set(id, this.capture());
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
    return this.restore(snap);
  }

  /** Goes back to the chain as served at start and forgets every snapshot; answers the blocks forgotten. */
  restart(): SealedBlock[] {
    this.taken.clear();
    return this.restore(this.initial);
  }

  /** How many snapshots are kept. */
  get size(): number {
    return this.taken.size;
  }

  private capture(): Snapshot {
    this.chain.head(); // runs the clock's due work first, so the snapshot is of the chain as it answers now
    const mark = this.chain.mark();
    return { mark, statuses: [...mark.byHash.values()].map((b) => [b, b.status, b.l1Anchor] as const) };
  }

  private restore(snap: Snapshot): SealedBlock[] {
    const forgotten = this.chain.rewind(snap.mark);
    for (const [block, status, anchor] of snap.statuses) {
      block.status = status;
      block.l1Anchor = anchor;
    }
    return forgotten;
  }
}
