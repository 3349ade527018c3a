import { defineMethod, required } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { formatBlock } from '../format.js';
import { blockId } from '../params.js';

/**
 * rollup_getBlockWithTxHashes: a block with its status and transaction hashes; `pending` with
 * nothing pending answers as `latest`; null when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"rollup_getBlockWithTxHashes","params":{"block_id":{"block_number":3}}}
 */
export const rollup_getBlockWithTxHashes = defineMethod({
  name: 'rollup_getBlockWithTxHashes',
  named: true,
  params: [required('block_id', blockId)],
  handler: (ctx: RollupContext, id) => {
    const block = ctx.chain.block(id);
    return block === undefined ? null : formatBlock(block);
  },
});
