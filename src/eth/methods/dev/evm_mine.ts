import { defineMethod, optional } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { mineOptions } from './params.js';

/**
 * evm_mine: mines one block now (with every executable pool transaction), at an optional timestamp; anvil's
 * `{ timestamp, blocks }` mines several. Answers "0x0", as hardhat and anvil do.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]} -> "0x0"
 */
export const evm_mine = defineMethod({
  name: 'evm_mine',
  facts: { dev: true, persists: true },
  params: [optional('options', mineOptions)],
  handler: async (ctx: EthContext, options) => {
    await ctx.node.mine(options?.blocks ?? 1n, undefined, options?.timestamp);
    return '0x0';
  },
});
