import { InvalidArgument, RollupError } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import { describe, type Decoder } from '../../../rpc/params.js';
import type { RollupContext } from '../../context.js';
import { formatTransaction } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';

const index: Decoder<number> = (value) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new InvalidArgument(`expected a non-negative JSON integer index, got ${describe(value)}`);
  return value;
};

/**
 * starknet_getTransactionByBlockIdAndIndex: the transaction at a position of a block; error 24 for an unknown block, 27 for an index past its end.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getTransactionByBlockIdAndIndex","params":{"block_id":{"block_number":1},"index":0}}
 */
export const starknet_getTransactionByBlockIdAndIndex = defineMethod({
  name: 'starknet_getTransactionByBlockIdAndIndex',
  named: true,
  params: [required('block_id', starknetBlockId), required('index', index)],
  handler: (ctx: RollupContext, id, i) => {
    const tx = resolveBlock(ctx, id).transactions[i];
    if (tx === undefined) throw new RollupError(27, 'Invalid transaction index in a block');
    return formatTransaction(tx);
  },
});
