import { quantityHex } from '../../../hex.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * evm_increaseTime: moves the next block's time `seconds` forward (blocks after it follow on from there);
 * answers the total seconds added so far, as a quantity.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_increaseTime","params":["0x3c"]} -> "0x3c"
 */
export const evm_increaseTime = defineMethod({
  name: 'evm_increaseTime',
  facts: { dev: true, persists: true },
  params: [required('seconds', numberOrQuantity)],
  handler: (ctx: EthContext, seconds) => quantityHex(ctx.miner.increaseTime(seconds)),
});
