import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { formatHeader, formatPendingHeader } from '../format/header.js';
import { headerOf } from '../format/mined.js';
import { gethBlockNumber } from '../gethParams.js';

/**
 * eth_getHeaderByNumber: a block's header by number or tag, as geth's RPCMarshalHeader (the block object's header
 * fields, no totalDifficulty, size or transactions); null when there is no such block. The pending block's header
 * has null hash, nonce and miner, as geth answers it.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getHeaderByNumber","params":["latest"]}
 */
export const eth_getHeaderByNumber = defineMethod({
  name: 'eth_getHeaderByNumber',
  params: [required('block', gethBlockNumber)],
  handler: async (ctx: EthContext, ref) => {
    const block = await ctx.node.resolveBlock('tag' in ref ? ref.tag : ref.number);
    if (block === undefined) return null;
    if ('tag' in ref && ref.tag === 'pending') return formatPendingHeader(headerOf(block), block.hash);
    return formatHeader(headerOf(block), block.hash);
  },
});
