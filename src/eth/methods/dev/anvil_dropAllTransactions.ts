import { defineMethod } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';

/**
 * anvil_dropAllTransactions: empties the pool.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_dropAllTransactions","params":[]} -> null
 */
export const anvil_dropAllTransactions = defineMethod({
  name: 'anvil_dropAllTransactions',
  facts: { dev: true, persists: true },
  params: [],
  handler: async (ctx: EthContext) => {
    await ctx.node.dropAllTransactions();
    return null;
  },
});
