import { RollupError } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { felt } from '../../params.js';
import { formatReceipt } from '../format.js';

/**
 * starknet_getTransactionReceipt: the spec 0.8 receipt (type, actual_fee {amount, unit}, execution and
 * finality status, resources, events, messages); a pending transaction's receipt has no block hash or
 * number. Error 29 when the hash is unknown or its block was rejected.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getTransactionReceipt","params":{"transaction_hash":"0x3f1..."}}
 */
export const starknet_getTransactionReceipt = defineMethod({
  name: 'starknet_getTransactionReceipt',
  named: true,
  params: [required('transaction_hash', felt)],
  handler: (ctx: RollupContext, hash) => {
    const found = ctx.chain.transaction(hash);
    if (found === undefined || found.block?.status === 'REJECTED') throw new RollupError(29, 'Transaction hash not found');
    return formatReceipt(found.tx, found.block, ctx);
  },
});
