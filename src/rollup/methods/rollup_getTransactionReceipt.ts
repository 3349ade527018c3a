import { defineMethod, required } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { formatReceipt } from '../format.js';
import { felt } from '../params.js';

/**
 * rollup_getTransactionReceipt: fee, status, block, messages sent and events of a transaction;
 * null when the hash is unknown or the transaction is still pending.
 * @example {"jsonrpc":"2.0","id":1,"method":"rollup_getTransactionReceipt","params":{"transaction_hash":"0x3f1..."}}
 */
export const rollup_getTransactionReceipt = defineMethod({
  name: 'rollup_getTransactionReceipt',
  named: true,
  params: [required('transaction_hash', felt)],
  handler: (ctx: RollupContext, hash) => {
    const found = ctx.chain.receipt(hash);
    return found === undefined ? null : formatReceipt(found.tx, found.block);
  },
});
