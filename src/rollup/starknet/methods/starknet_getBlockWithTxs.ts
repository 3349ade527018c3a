import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { formatHeader, formatTransaction } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';

/**
 * starknet_getBlockWithTxs: a block header with its full transactions; error 24 when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getBlockWithTxs","params":{"block_id":"latest"}}
 */
export const starknet_getBlockWithTxs = defineMethod({
  name: 'starknet_getBlockWithTxs',
  named: true,
  params: [required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, id) => {
    const b = resolveBlock(ctx, id);
    return { ...formatHeader(b, ctx), transactions: b.transactions.map(formatTransaction) };
  },
});
