/**
 * Drafts of the next block: on head's own state (mining: the node appends what it seals), or on a copy of head's
 * state the chain never takes (the pending block, what-ifs).
 */
import type { MinedBlock, NextHeader, PendingTx } from '../chain/types.js';
import type { EthChain } from '../chain/chain.js';
import { createVM } from '@ethereumjs/vm';
import { BlockDraft, headerDataFor } from './draft.js';
import { orderForBlock } from './pool.js';

/** A draft of the next block on head's own state (call it only on the node's writer; the state is mid-block until sealed). */
export async function openHeadDraft(chain: EthChain, header: NextHeader = {}): Promise<BlockDraft> {
  const vm = await chain.vmAtHead();
  const parent = chain.head();
  const data = headerDataFor(parent, header);
  if (chain.hasSchedule) vm.common.setHardforkBy({ blockNumber: parent.number + 1n, timestamp: data.timestamp as bigint });
  return BlockDraft.open(vm, parent, data);
}

/** A draft of the next block (with `header`'s fields) on a copy of head's state. */
export async function openPendingDraft(chain: EthChain, header: NextHeader = {}): Promise<BlockDraft> {
  const parent = chain.head();
  const data = headerDataFor(parent, header);
  const common = chain.commonAt(parent.number + 1n, data.timestamp as bigint);
  const vm = await createVM({ common, stateManager: await chain.stateAt(parent), blockchain: chain.view });
  return BlockDraft.open(vm, parent, data);
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

/** The block that would be mined now from `pool` on head (with `header`'s fields), on a copy of head's state. */
export async function pendingBlockOf(chain: EthChain, pool: readonly PendingTx[], header: NextHeader = {}): Promise<MinedBlock> {
  const draft = await openPendingDraft(chain, header);
  return buildPendingBlock(draft, orderForBlock(pool, draft.context.header.baseFeePerGas));
}
