import { defineMethod } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';

/**
 * starknet_blockHashAndNumber: hash and number of the latest sealed block.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_blockHashAndNumber","params":[]} -> {"block_hash":"0x...","block_number":4}
 */
export const starknet_blockHashAndNumber = defineMethod({
  name: 'starknet_blockHashAndNumber',
  named: true,
  params: [],
  handler: (ctx: RollupContext) => {
    const head = ctx.chain.head();
    return { block_hash: feltHex(head.hash), block_number: Number(head.number) };
  },
});
