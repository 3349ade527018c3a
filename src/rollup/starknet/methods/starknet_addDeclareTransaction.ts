import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';
import { declareTransaction } from '../../params.js';

/**
 * starknet_addDeclareTransaction: declares a Sierra class (DECLARE v3). The class hash is computed from
 * the class as Starknet does; the compiled class hash is taken as given (devgate compiles nothing, so it
 * cannot check it: no error 60). The class is then served by starknet_getClass and can be deployed by
 * DEPLOY_ACCOUNT. Errors: 51 already declared, 52 nonce, 53 bounds below the fee, 54 balance, 55
 * signature, 61 query version, 20 sender not deployed.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_addDeclareTransaction","params":{"declare_transaction":{"type":"DECLARE","version":"0x3",
 *   "sender_address":"0x64b4...","compiled_class_hash":"0x...","contract_class":{"sierra_program":[...],"contract_class_version":"0.1.0",
 *   "entry_points_by_type":{...},"abi":"[...]"},"signature":[...],"nonce":"0x1",...}}} -> {"transaction_hash":"0x...","class_hash":"0x..."}
 */
export const starknet_addDeclareTransaction = defineMethod({
  name: 'starknet_addDeclareTransaction',
  named: true,
  params: [required('declare_transaction', declareTransaction)],
  handler: (ctx: RollupContext, tx) => ({
    transaction_hash: feltHex(ctx.chain.addInvokeTransaction(tx)),
    class_hash: feltHex(tx.classHash),
  }),
});
