import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * anvil_setBlockTimestampInterval: every following block `seconds` after its parent.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setBlockTimestampInterval","params":[5]} -> null
 */
export const anvil_setBlockTimestampInterval = defineMethod({
  name: 'anvil_setBlockTimestampInterval',
  params: [required('seconds', numberOrQuantity)],
  handler: (ctx: EthContext, seconds) => {
    ctx.miner.setTimestampInterval(seconds);
    return null;
  },
});
