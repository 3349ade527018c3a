import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { suggestTip } from '../engine/query/fees.js';

/**
 * eth_maxPriorityFeePerGas: a priority fee (tip) for a fee-market transaction, from recent blocks'
 * tips as geth's gas price oracle computes it (1 gwei on an empty history).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_maxPriorityFeePerGas","params":[]} -> "0x3b9aca00"
 */
export const eth_maxPriorityFeePerGas = defineMethod({
  name: 'eth_maxPriorityFeePerGas',
  params: [],
  handler: (ctx: EthContext) => quantityHex(suggestTip(ctx.chain)),
});
