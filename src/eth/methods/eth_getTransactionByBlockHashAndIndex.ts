import { defineMethod, required } from '../../rpc/method.js';
import { hash32, uint64 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { minedTransactionJson } from '../format/transaction.js';

/**
 * eth_getTransactionByBlockHashAndIndex: the transaction at an index of a block; null when there is none.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getTransactionByBlockHashAndIndex","params":["0xdc0818cf78f21a8e70579cb46a43643f78291264dda342ae31049421c82d21ae","0x0"]}
 */
export const eth_getTransactionByBlockHashAndIndex = defineMethod({
  name: 'eth_getTransactionByBlockHashAndIndex',
  params: [required('blockHash', hash32), required('index', uint64)],
  handler: (ctx: EthContext, hash, index) => {
    const block = ctx.chain.blockByHash(hash);
    if (block === undefined || index >= BigInt(block.txHashes.length)) return null;
    return minedTransactionJson(block, Number(index));
  },
});
