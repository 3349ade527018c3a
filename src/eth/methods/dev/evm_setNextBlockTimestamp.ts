import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * evm_setNextBlockTimestamp: the next block's timestamp (after head's), once.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_setNextBlockTimestamp","params":["0x6553f200"]} -> null
 */
export const evm_setNextBlockTimestamp = defineMethod({
  name: 'evm_setNextBlockTimestamp',
  facts: { dev: true, persists: true },
  params: [required('timestamp', numberOrQuantity)],
  handler: (ctx: EthContext, timestamp) => {
    ctx.miner.setNextBlockTimestamp(timestamp);
    return null;
  },
});
