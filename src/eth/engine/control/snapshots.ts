/**
 * Snapshots of an eth network, with hardhat's semantics (evm_snapshot / evm_revert, anvil_snapshot /
 * anvil_revert): a revert restores blocks, state (head's unmined edits too), pool, mining mode and time, and
 * deletes that snapshot and every later one (impersonations too); an unknown id reverts nothing. The trie keeps every root, so a
 * snapshot is a few pointers, not a copy: taking and reverting cost the same on a long chain as on a short one
 * (a revert forgets the blocks it cuts). `reset` goes back to the chain as it was served at start. This keeps the
 * snapshots; the node (src/eth/node/) takes and restores them on its writer.
 */
import { equalsBytes } from '@ethereumjs/util';
import type { EthChain } from '../chain/chain.js';
import type { PendingTx } from '../chain/types.js';
import type { Miner, MinerState } from '../mining/miner.js';
import type { Impersonation } from '../wallet/impersonation.js';

/** What a snapshot keeps (a data directory gives the seed's one as `initial` after a restart). */
export interface Snapshot {
  readonly head: bigint;
  readonly headHash: Uint8Array;
  readonly editedRoot: Uint8Array | undefined;
  readonly pool: readonly PendingTx[];
  readonly miner: MinerState;
  readonly impersonation: ReturnType<Impersonation['state']> | undefined;
}

export class Snapshots {
  private readonly taken = new Map<bigint, Snapshot>();
  private nextId = 0n;
  /** The chain as served at start (anvil_reset goes back to it). */
  private initial: Snapshot;

  constructor(
    private readonly chain: EthChain,
    private readonly miner: Miner,
    private readonly impersonation?: Impersonation,
    initial?: Snapshot,
  ) {
    this.initial = initial ?? this.capture();
  }

  /** Takes a snapshot of the network as it is now (the node calls it on its writer); answers its id. */
  take(): bigint {
    const id = this.nextId++;
    this.taken.set(id, this.capture());
    return id;
  }

  /** Snapshot `id`, deleted with every later one (a revert restores it); undefined, and nothing deleted, for an unknown id. */
  pop(id: bigint): Snapshot | undefined {
    const snap = this.taken.get(id);
    if (snap === undefined) return undefined;
    for (const later of [...this.taken.keys()]) if (later >= id) this.taken.delete(later);
    return snap;
  }

  /** The chain as served at start (its seeded blocks, pool and mining settings), every snapshot forgotten (a reset restores it). */
  reset(): Snapshot {
    this.taken.clear();
    return this.initial;
  }

  /**
   * After a dump was loaded into the chain (call it on the writer): forgets every snapshot; `reset` still goes back to
   * the chain as served at start when its head is on the loaded chain (a dump of the same seed), else to the loaded chain.
   */
  rebase(): void {
    this.taken.clear();
    const at = this.chain.blockByNumber(this.initial.head);
    if (at === undefined || !equalsBytes(at.hash, this.initial.headHash)) this.initial = this.capture();
  }

  /** The kept snapshots' ids, block numbers and hashes (anvil_metadata's `snapshots`). */
  list = (): [bigint, bigint, Uint8Array][] => [...this.taken].map(([id, s]) => [id, s.head, s.headHash]);

  /** How many snapshots are kept (for tests). */
  get size(): number {
    return this.taken.size;
  }

  /** The network as it is now. */
  capture(): Snapshot {
    const head = this.chain.head();
    const editedRoot = this.chain.stateRootOf(head);
    return {
      head: head.number,
      headHash: head.hash,
      editedRoot: editedRoot === (head.raw?.header ?? head.header).stateRoot ? undefined : editedRoot,
      pool: [...this.chain.pendingTransactions()],
      miner: this.miner.state(),
      impersonation: this.impersonation?.state(),
    };
  }
}
