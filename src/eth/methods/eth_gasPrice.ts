import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { suggestGasPrice } from '../engine/query/fees.js';

/**
 * eth_gasPrice: a gas price for a legacy transaction: geth's suggested tip plus the head's base fee.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_gasPrice","params":[]} -> "0x3b9aca07"
 */
export const eth_gasPrice = defineMethod({
  name: 'eth_gasPrice',
  params: [],
  handler: (ctx: EthContext) => quantityHex(suggestGasPrice(ctx.chain)),
});
