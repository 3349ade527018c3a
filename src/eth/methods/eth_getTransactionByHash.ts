import { defineMethod, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { formatTransaction, minedTransactionJson } from '../format/transaction.js';

/**
 * eth_getTransactionByHash: a mined or pending transaction (a pending one has null blockHash,
 * blockNumber and transactionIndex); null when unknown.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getTransactionByHash","params":["0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b"]}
 */
export const eth_getTransactionByHash = defineMethod({
  name: 'eth_getTransactionByHash',
  params: [required('transactionHash', hash32)],
  handler: (ctx: EthContext, hash) => {
    const found = ctx.chain.transaction(hash);
    if (found === undefined) return null;
    if (found.kind === 'pending') return formatTransaction(found.pending.tx, found.pending.sender, { kind: 'pending' });
    return minedTransactionJson(found.block, found.index);
  },
});
