import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';
import { formatHeader } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';

/**
 * starknet_getBlockWithTxHashes: a block header (spec 0.8 fields) with its transaction hashes; error 24 when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getBlockWithTxHashes","params":{"block_id":{"block_number":3}}}
 */
export const starknet_getBlockWithTxHashes = defineMethod({
  name: 'starknet_getBlockWithTxHashes',
  named: true,
  params: [required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, id) => {
    const b = resolveBlock(ctx, id);
    return { ...formatHeader(b, ctx), transactions: b.transactions.map((t) => feltHex(t.hash)) };
  },
});
