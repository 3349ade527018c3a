import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrTag, bool } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { formatBlock } from '../format.js';

/**
 * eth_getBlockByNumber: a block by number or tag, with full transactions when the flag is true;
 * null when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x0",false]}
 */
export const eth_getBlockByNumber = defineMethod({
  name: 'eth_getBlockByNumber',
  params: [required('block', blockNumberOrTag), optional('fullTransactions', bool)],
  handler: (ctx: EthContext, selector, _full) => {
    const block = 'number' in selector ? ctx.chain.blockByNumber(selector.number) : selector.tag === 'earliest' ? ctx.chain.blockByNumber(0n) : ctx.chain.head();
    return block === undefined ? null : formatBlock(block, block.header.difficulty);
  },
});
