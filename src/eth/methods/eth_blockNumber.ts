import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';

/**
 * eth_blockNumber: the number of the newest mined block.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]} -> "0x12c"
 */
export const eth_blockNumber = defineMethod({
  name: 'eth_blockNumber',
  params: [],
  handler: (ctx: EthContext) => quantityHex(ctx.chain.head().number),
});
