import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { deployedAddress } from '../../engine/hash.js';
import { feltHex } from '../../format.js';
import { deployAccountTransaction } from '../../params.js';

/**
 * starknet_addDeployAccountTransaction: deploys an account (DEPLOY_ACCOUNT v3) of a declared class at
 * the address its salt, class hash and constructor calldata give (deployer 0); the public key is the
 * constructor's first argument, the signature is checked against it, and the fee is paid (in fri) from
 * what the address was funded with (seed `fundedAddresses`). Errors: 28 class not declared, 52 nonce
 * not 0, 53 bounds below the fee, 54 balance below the maximal fee, 55 signature, 61 query version,
 * 40 when a contract is deployed there already.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_addDeployAccountTransaction","params":{"deploy_account_transaction":{"type":"DEPLOY_ACCOUNT",
 *   "version":"0x3","class_hash":"0x...","contract_address_salt":"0x1","constructor_calldata":["0x<public key>"],"signature":[...],"nonce":"0x0",...}}}
 *   -> {"transaction_hash":"0x...","contract_address":"0x..."}
 */
export const starknet_addDeployAccountTransaction = defineMethod({
  name: 'starknet_addDeployAccountTransaction',
  named: true,
  params: [required('deploy_account_transaction', deployAccountTransaction)],
  handler: (ctx: RollupContext, tx) => ({
    transaction_hash: feltHex(ctx.chain.addInvokeTransaction(tx)),
    contract_address: feltHex(deployedAddress(tx)),
  }),
});
