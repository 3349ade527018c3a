import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { finalityOf, pendingFinality, formatHeader, formatReceiptBody, formatTransaction } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';

/**
 * starknet_getBlockWithReceipts: a block header with each transaction and its receipt; error 24 when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getBlockWithReceipts","params":{"block_id":"pending"}}
 */
export const starknet_getBlockWithReceipts = defineMethod({
  name: 'starknet_getBlockWithReceipts',
  named: true,
  params: [required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, id) => {
    const b = resolveBlock(ctx, id);
    const finality = 'hash' in b ? finalityOf(b) : pendingFinality(ctx);
    const transactions = b.transactions.map((t) => ({ transaction: formatTransaction(t), receipt: formatReceiptBody(t, finality) }));
    return { ...formatHeader(b, ctx), transactions };
  },
});
