import { quantityHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';

/**
 * eth_getBlockTransactionCountByHash: the number of transactions in a block given by hash; null when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getBlockTransactionCountByHash","params":["0xdc0818cf78f21a8e70579cb46a43643f78291264dda342ae31049421c82d21ae"]}
 */
export const eth_getBlockTransactionCountByHash = defineMethod({
  name: 'eth_getBlockTransactionCountByHash',
  params: [required('blockHash', hash32)],
  handler: async (ctx: EthContext, arg) => {
    const block = ctx.chain.blockByHash(arg);
    return block === undefined ? null : quantityHex(block.txHashes.length);
  },
});
