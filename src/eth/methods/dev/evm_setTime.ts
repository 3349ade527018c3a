import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * evm_setTime (anvil, ganache): sets the chain's clock to a unix time in seconds: the next block is stamped with it
 * and the blocks after follow on from there. Answers, as anvil, the seconds between that time and the chain's time
 * now (head's timestamp; devgate's clock is the chain's, not the wall clock's), 0 when not later. devgate's blocks
 * must move forward: a time not after head's is refused (-32602 naming head's timestamp), where anvil would stamp
 * a block earlier than its parent.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_setTime","params":[1900000000]} -> 104135376
 */
export const evm_setTime = defineMethod({
  name: 'evm_setTime',
  facts: { dev: true, persists: true },
  params: [required('timestamp', numberOrQuantity)],
  handler: (ctx: EthContext, timestamp) => {
    const now = ctx.chain.head().header.timestamp;
    ctx.miner.setNextBlockTimestamp(timestamp);
    return Number(timestamp > now ? timestamp - now : 0n);
  },
});
