import { defineMethod, required } from '../../rpc/method.js';
import { blockNumberOrTag, bool } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { formatBlock, minedBlockJson } from '../format/block.js';

/**
 * eth_getBlockByNumber: a block by number or tag (`latest`, `earliest`, `pending`, `safe`,
 * `finalized`), with full transactions when the flag is true; null when there is no such block.
 * The pending block has null hash, logsBloom, nonce and number.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x1b4",true]}
 */
export const eth_getBlockByNumber = defineMethod({
  name: 'eth_getBlockByNumber',
  params: [required('block', blockNumberOrTag), required('fullTransactions', bool)],
  handler: async (ctx: EthContext, ref, fullTransactions) => {
    const block = await ctx.node.resolveBlock('tag' in ref ? ref.tag : ref.number);
    if (block === undefined) return null;
    if ('tag' in ref && ref.tag === 'pending') return formatBlock(block, { fullTransactions, pending: true });
    return minedBlockJson(block, fullTransactions);
  },
});
