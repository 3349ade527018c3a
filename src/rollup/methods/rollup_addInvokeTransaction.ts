import { defineMethod, optional, required } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { feltHex } from '../format.js';
import { invokeTransaction, outcome, outcomeFromWire } from '../params.js';

/**
 * rollup_addInvokeTransaction: submits an INVOKE transaction into the pending block: nonce and
 * signature checked, fee charged. `outcome` (devgate's own, optional) gives what the transaction
 * did: `events`, `messages_sent`, `storage_writes`; missing parts are derived from its calls.
 * @example {"jsonrpc":"2.0","id":1,"method":"rollup_addInvokeTransaction","params":{"invoke_transaction":{"type":"INVOKE",
 *   "version":"0x1","sender_address":"0x64b4...","calldata":[...],"signature":[...],"nonce":"0x2","max_fee":"0x2386f26fc10000"},
 *   "outcome":{"events":[{"keys":["0x1"],"data":[]}]}}} -> {"transaction_hash":"0x..."}
 */
export const rollup_addInvokeTransaction = defineMethod({
  name: 'rollup_addInvokeTransaction',
  named: true,
  params: [required('invoke_transaction', invokeTransaction), optional('outcome', outcome)],
  handler: (ctx: RollupContext, tx, given) => ({
    transaction_hash: feltHex(ctx.chain.addInvokeTransaction(tx, outcomeFromWire(given, tx.senderAddress))),
  }),
});
