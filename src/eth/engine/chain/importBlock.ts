/** A foreign block (an import) executed on head's VM and checked against its own header. */
import type { Block } from '@ethereumjs/block';
import type { Address } from '@ethereumjs/util';
import { runBlock, type VM } from '@ethereumjs/vm';
import { minedBlock, storedReceipts } from './receipts.js';
import type { MinedBlock } from './types.js';

/**
 * Executes `block` on `vm` (head's, whose parent is `parent`) without generating anything: the computed state root,
 * receipts root, gas used and bloom must equal the header's, or this throws naming the block, after `resetHead`
 * (runBlock reverts its checkpoint, but state flushed for the root check can survive in the caches). With a hardfork
 * schedule the block runs under its own hardfork. Answers the block as the chain keeps it, not yet appended.
 */
export async function executeForeign(vm: VM, block: Block, parent: MinedBlock, scheduled: boolean, resetHead: () => Promise<void>): Promise<MinedBlock> {
  const n = block.header.number;
  let senders: Address[];
  try {
    senders = block.transactions.map((tx) => tx.getSenderAddress());
  } catch (err) {
    throw new Error(`block ${n}: ${(err as Error).message}`);
  }
  let result: Awaited<ReturnType<typeof runBlock>>;
  try {
    result = await runBlock(vm, { block, setHardfork: scheduled });
  } catch (err) {
    await resetHead();
    throw new Error(`block ${n} does not execute to its header: ${(err as Error).message}`);
  }
  return minedBlock(block, parent.totalDifficulty, senders, storedReceipts(block, senders, result.receipts, result.results));
}
