import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';
import { felt } from '../../params.js';
import { contractAt, starknetBlockId } from '../params.js';
import { feltParam } from './reveals.js';

/**
 * starknet_getNonce: a contract's nonce at a block; error 24 for an unknown block, 20 for a contract not deployed there.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getNonce","params":{"block_id":"latest","contract_address":"0x64b4..."}} -> "0x2"
 */
export const starknet_getNonce = defineMethod({
  name: 'starknet_getNonce',
  facts: { reveals: feltParam(1, 'contract_address') },
  named: true,
  params: [required('block_id', starknetBlockId), required('contract_address', felt)],
  handler: (ctx: RollupContext, id, address) => feltHex(contractAt(ctx, id, address).nonce),
});
