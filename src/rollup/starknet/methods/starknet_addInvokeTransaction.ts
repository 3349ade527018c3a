import { defineMethod, optional, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';
import { invokeTransaction, outcome, outcomeFromWire } from '../../params.js';
import { checkTxVersion } from '../versions.js';

/**
 * starknet_addInvokeTransaction: submits an INVOKE transaction (v3; v1 too in spec 0.8) into the
 * pending block: nonce and signature checked, bounds and balance checked, fee charged. Errors 52
 * (nonce), 53 (bounds below the fee), 54 (balance), 55 (signature), 61 (query or unsupported version).
 * The optional `outcome` is devgate's own (see rollup_addInvokeTransaction).
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_addInvokeTransaction","params":{"invoke_transaction":{"type":"INVOKE","version":"0x3",...}}}
 *   -> {"transaction_hash":"0x..."}
 */
export const starknet_addInvokeTransaction = defineMethod({
  name: 'starknet_addInvokeTransaction',
  named: true,
  params: [required('invoke_transaction', invokeTransaction), optional('outcome', outcome)],
  handler: (ctx: RollupContext, tx, given) => {
    checkTxVersion(ctx, tx.version);
    return { transaction_hash: feltHex(ctx.chain.addInvokeTransaction(tx, outcomeFromWire(given, tx.senderAddress))) };
  },
});
