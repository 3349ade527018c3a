import { defineMethod, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { receiptJson } from '../format/receipt.js';

/**
 * eth_getTransactionReceipt: the receipt of a mined transaction (`root` before Byzantium, `status`
 * from Byzantium on); null for a pending or unknown transaction.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getTransactionReceipt","params":["0x85d995eba9763907fdf35cd2034144dd9d53ce32cbec21349d4b12823c6860c5"]}
 */
export const eth_getTransactionReceipt = defineMethod({
  name: 'eth_getTransactionReceipt',
  params: [required('transactionHash', hash32)],
  handler: (ctx: EthContext, hash) => {
    const found = ctx.chain.transaction(hash);
    return found === undefined || found.kind !== 'mined' ? null : receiptJson(found.block, found.index);
  },
});
