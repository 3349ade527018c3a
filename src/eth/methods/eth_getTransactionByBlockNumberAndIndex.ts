import { defineMethod, required } from '../../rpc/method.js';
import { blockNumberOrTag, uint64 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { formatTransaction, minedTransactionJson } from '../format/transaction.js';

/**
 * eth_getTransactionByBlockNumberAndIndex: the transaction at an index of a block given by number or
 * tag (of the pending block: a pending transaction); null when there is none.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getTransactionByBlockNumberAndIndex","params":["latest","0x0"]}
 */
export const eth_getTransactionByBlockNumberAndIndex = defineMethod({
  name: 'eth_getTransactionByBlockNumberAndIndex',
  params: [required('block', blockNumberOrTag), required('index', uint64)],
  handler: async (ctx: EthContext, ref, index) => {
    const block = await ctx.node.resolveBlock('tag' in ref ? ref.tag : ref.number);
    if (block === undefined || index >= BigInt(block.txHashes.length)) return null;
    const i = Number(index);
    if ('tag' in ref && ref.tag === 'pending') return formatTransaction(block.block.transactions[i]!, block.senders[i]!, { kind: 'pending' });
    return minedTransactionJson(block, i);
  },
});
