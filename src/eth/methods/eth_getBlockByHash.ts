import { defineMethod, required } from '../../rpc/method.js';
import { bool, hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { minedBlockJson } from '../format/block.js';

/**
 * eth_getBlockByHash: a block by hash, with full transactions when the flag is true; null when unknown.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getBlockByHash","params":["0xdc0818cf78f21a8e70579cb46a43643f78291264dda342ae31049421c82d21ae",false]}
 */
export const eth_getBlockByHash = defineMethod({
  name: 'eth_getBlockByHash',
  params: [required('blockHash', hash32), required('fullTransactions', bool)],
  handler: (ctx: EthContext, hash, fullTransactions) => {
    const block = ctx.chain.blockByHash(hash);
    return block === undefined ? null : minedBlockJson(block, fullTransactions);
  },
});
