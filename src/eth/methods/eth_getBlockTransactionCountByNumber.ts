import { quantityHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { blockNumberOrTag } from '../../rpc/params.js';
import type { EthContext } from '../context.js';

/**
 * eth_getBlockTransactionCountByNumber: the number of transactions in a block given by number or tag; null when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getBlockTransactionCountByNumber","params":["latest"]}
 */
export const eth_getBlockTransactionCountByNumber = defineMethod({
  name: 'eth_getBlockTransactionCountByNumber',
  params: [required('block', blockNumberOrTag)],
  handler: async (ctx: EthContext, arg) => {
    const block = await ctx.node.resolveBlock('tag' in arg ? arg.tag : arg.number);
    return block === undefined ? null : quantityHex(block.txHashes.length);
  },
});
