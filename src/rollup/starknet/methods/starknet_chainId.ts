import { defineMethod } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';

/**
 * starknet_chainId: the chain id as a felt (`SN_MAIN` is 0x534e5f4d41494e).
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_chainId","params":[]} -> "0x534e5f4d41494e"
 */
export const starknet_chainId = defineMethod({
  name: 'starknet_chainId',
  named: true,
  params: [],
  handler: (ctx: RollupContext) => feltHex(ctx.chain.config.chainId),
});
