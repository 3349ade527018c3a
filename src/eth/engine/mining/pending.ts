/**
 * The pending block: the block that would be mined now from the pool, built on a copy of head's state that the
 * chain never takes (the chain keeps it until pool, head or the next header's fields change).
 */
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { createVM } from '@ethereumjs/vm';
import type { ChainView } from '../chain/chainView.js';
import type { MinedBlock, NextHeader, PendingTx } from '../chain/types.js';
import { BlockDraft, headerDataFor } from './draft.js';

/** What a pending draft needs of its chain. */
export interface PendingSource {
  head(): MinedBlock;
  commonAt(number: bigint, timestamp: bigint): Common;
  stateAt(block: MinedBlock): Promise<MerkleStateManager>;
  readonly view: ChainView;
}

/** A draft of the next block (with `header`'s fields) on a copy of head's state. */
export async function openPendingDraft(chain: PendingSource, header: NextHeader): Promise<BlockDraft> {
  const parent = chain.head();
  const data = headerDataFor(parent, header);
  const common = chain.commonAt(parent.number + 1n, data.timestamp as bigint);
  const vm = await createVM({ common, stateManager: await chain.stateAt(parent), blockchain: chain.view });
  return BlockDraft.open(vm, parent, data, async () => {});
}

/** Runs the pool's transactions in `draft` (those that do not apply now wait, as in a real pool) and seals it. */
export async function buildPendingBlock(draft: BlockDraft, pool: readonly PendingTx[]): Promise<MinedBlock> {
  for (const p of pool) {
    try {
      await draft.add(p.tx, p.sender);
    } catch {
      // A nonce gap, or funds: it waits.
    }
  }
  return draft.seal();
}
