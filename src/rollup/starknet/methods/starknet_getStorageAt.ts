import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';
import { felt } from '../../params.js';
import { contractAt, starknetBlockId } from '../params.js';
import { feltParam } from './reveals.js';

/**
 * starknet_getStorageAt: a storage slot of a contract at a block (0x0 when never written); error 20 for a contract not deployed there.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getStorageAt","params":{"contract_address":"0x...","key":"0x7","block_id":"latest"}} -> "0x1"
 */
export const starknet_getStorageAt = defineMethod({
  name: 'starknet_getStorageAt',
  facts: { reveals: feltParam(0, 'contract_address') },
  named: true,
  params: [required('contract_address', felt), required('key', felt), required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, address, key, id) => feltHex(contractAt(ctx, id, address).storage.get(key) ?? 0n),
});
