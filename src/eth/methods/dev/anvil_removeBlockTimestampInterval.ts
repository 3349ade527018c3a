import { defineMethod } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';

/**
 * anvil_removeBlockTimestampInterval: back to the usual block time; answers whether an interval was set.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_removeBlockTimestampInterval","params":[]} -> true
 */
export const anvil_removeBlockTimestampInterval = defineMethod({
  name: 'anvil_removeBlockTimestampInterval',
  facts: { dev: true, persists: true },
  params: [],
  handler: (ctx: EthContext) => ctx.miner.setTimestampInterval(undefined),
});

/** hardhat_removeBlockTimestampInterval: the same, as viem's hardhat mode names it (an extension: hardhat has none). */
export const hardhat_removeBlockTimestampInterval = { ...anvil_removeBlockTimestampInterval, name: 'hardhat_removeBlockTimestampInterval' };
