import { DevgateError } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { replay } from '../../engine/replay.js';
import type { PendingBlock, SealedBlock } from '../../engine/types.js';
import { feltHex } from '../../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';
import { parentOf } from '../state.js';
import { formatTrace } from '../trace.js';
import { revealsAny } from './reveals.js';

/** The traces of a block's transactions, replayed from the state before the block (see src/rollup/starknet/trace.ts). */
export function blockTraces(ctx: RollupContext, block: SealedBlock | PendingBlock): { transaction_hash: string; trace_root: Record<string, unknown> }[] {
  const config = ctx.chain.config;
  const parent = parentOf(ctx, block);
  if (parent === undefined && block.transactions.length > 0) {
    throw new DevgateError('the transactions of the genesis block cannot be traced: devgate keeps the seed state only after them');
  }
  const start = parent?.state ?? new Map();
  const steps = replay(start, block.transactions, {
    chainId: config.chainId,
    gasPrices: block.gasPrices,
    sequencerAddress: block.sequencerAddress,
    feeTokens: config.feeTokens,
  });
  return steps.map((s) => ({
    transaction_hash: feltHex(s.executed.hash),
    trace_root: formatTrace(s.executed, s.before, s.after, config, {
      validate: s.executed.tx.kind !== 'L1_HANDLER',
      charge: s.executed.actualFee > 0n && s.executed.tx.kind !== 'L1_HANDLER',
    }),
  }));
}

/**
 * starknet_traceBlockTransactions: the TRANSACTION_TRACE of every transaction of a block, in order,
 * built as simulateTransactions builds them (validate, execute, fee transfer, state diff), from a replay
 * of the block on the state before it. Error 24 when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_traceBlockTransactions","params":{"block_id":{"block_number":3}}}
 *   -> [{"transaction_hash":"0x...","trace_root":{"type":"INVOKE","execute_invocation":{...},...}}]
 */
export const starknet_traceBlockTransactions = defineMethod({
  name: 'starknet_traceBlockTransactions',
  facts: { reveals: revealsAny },
  named: true,
  params: [required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, id) => blockTraces(ctx, resolveBlock(ctx, id)),
});
