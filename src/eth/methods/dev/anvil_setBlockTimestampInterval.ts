import { InvalidArgument } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * anvil_setBlockTimestampInterval: every following block `seconds` after its parent.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setBlockTimestampInterval","params":[5]} -> null
 */
export const anvil_setBlockTimestampInterval = defineMethod({
  name: 'anvil_setBlockTimestampInterval',
  facts: { dev: true, persists: true },
  params: [required('seconds', numberOrQuantity)],
  handler: (ctx: EthContext, seconds) => {
    ctx.miner.setTimestampInterval(seconds);
    return null;
  },
});

/**
 * hardhat_setBlockTimestampInterval: the same, in milliseconds, as viem's hardhat mode names and scales it (an extension:
 * hardhat has no such method); a whole number of seconds.
 */
export const hardhat_setBlockTimestampInterval = defineMethod({
  name: 'hardhat_setBlockTimestampInterval',
  facts: { dev: true, persists: true },
  params: [required('milliseconds', numberOrQuantity)],
  handler: (ctx: EthContext, ms) => {
    if (ms % 1000n !== 0n)
      throw new InvalidArgument(`the interval is in milliseconds (as viem's hardhat mode sends it) and a whole number of seconds, got ${ms} ms`);
    ctx.miner.setTimestampInterval(ms / 1000n);
    return null;
  },
});
