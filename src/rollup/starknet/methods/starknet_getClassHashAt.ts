import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';
import { felt } from '../../params.js';
import { contractAt, starknetBlockId } from '../params.js';
import { feltParam } from './reveals.js';

/**
 * starknet_getClassHashAt: the class hash of the contract at an address; error 20 when none is deployed there.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getClassHashAt","params":{"block_id":"latest","contract_address":"0x64b4..."}} -> "0x61da..."
 */
export const starknet_getClassHashAt = defineMethod({
  name: 'starknet_getClassHashAt',
  facts: { reveals: feltParam(1, 'contract_address') },
  named: true,
  params: [required('block_id', starknetBlockId), required('contract_address', felt)],
  handler: (ctx: RollupContext, id, address) => feltHex(contractAt(ctx, id, address).classHash),
});
