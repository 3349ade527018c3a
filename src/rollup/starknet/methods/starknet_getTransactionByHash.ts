import { RollupError } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { felt } from '../../params.js';
import { formatTransaction } from '../format.js';

/**
 * starknet_getTransactionByHash: a transaction (pending or sealed); error 29 when the hash is unknown or its block was rejected.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getTransactionByHash","params":{"transaction_hash":"0x3f1..."}}
 */
export const starknet_getTransactionByHash = defineMethod({
  name: 'starknet_getTransactionByHash',
  named: true,
  params: [required('transaction_hash', felt)],
  handler: (ctx: RollupContext, hash) => {
    const found = ctx.chain.transaction(hash);
    if (found === undefined || found.block?.status === 'REJECTED') throw new RollupError(29, 'Transaction hash not found');
    return formatTransaction(found.tx);
  },
});
