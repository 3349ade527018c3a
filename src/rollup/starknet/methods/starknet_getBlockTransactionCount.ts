import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { resolveBlock, starknetBlockId } from '../params.js';

/**
 * starknet_getBlockTransactionCount: how many transactions a block holds; error 24 when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getBlockTransactionCount","params":{"block_id":"latest"}} -> 2
 */
export const starknet_getBlockTransactionCount = defineMethod({
  name: 'starknet_getBlockTransactionCount',
  named: true,
  params: [required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, id) => resolveBlock(ctx, id).transactions.length,
});
