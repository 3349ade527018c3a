import { defineMethod } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';

/**
 * rollup_blockNumber: the number of the latest sealed block, as a JSON integer.
 * @example {"jsonrpc":"2.0","id":1,"method":"rollup_blockNumber","params":{}} -> 6
 */
export const rollup_blockNumber = defineMethod({
  name: 'rollup_blockNumber',
  named: true,
  params: [],
  handler: (ctx: RollupContext) => Number(ctx.chain.head().number),
});
