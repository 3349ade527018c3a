import { defineMethod } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';

/**
 * starknet_blockNumber: the number of the latest sealed block, a JSON integer.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_blockNumber","params":[]} -> 4
 */
export const starknet_blockNumber = defineMethod({
  name: 'starknet_blockNumber',
  named: true,
  params: [],
  handler: (ctx: RollupContext) => Number(ctx.chain.head().number),
});
