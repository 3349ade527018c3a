import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';

/**
 * eth_chainId: the chain id (EIP-155) as a quantity.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]} -> "0x1"
 */
export const eth_chainId = defineMethod({
  name: 'eth_chainId',
  params: [],
  handler: (ctx: EthContext) => quantityHex(ctx.chain.chainId),
});
