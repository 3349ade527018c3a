import { quantityHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { blockNumberOrTag } from '../../rpc/params.js';
import type { EthContext } from '../context.js';

/**
 * eth_getUncleCountByBlockNumber: the number of uncles of a block given by number or tag; null when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getUncleCountByBlockNumber","params":["latest"]}
 */
export const eth_getUncleCountByBlockNumber = defineMethod({
  name: 'eth_getUncleCountByBlockNumber',
  params: [required('block', blockNumberOrTag)],
  handler: async (ctx: EthContext, arg) => {
    const block = await ctx.node.resolveBlock('tag' in arg ? arg.tag : arg.number);
    return block === undefined ? null : quantityHex(block.block.uncleHeaders.length);
  },
});
