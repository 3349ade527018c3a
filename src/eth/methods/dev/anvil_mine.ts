import { defineMethod, optional } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * anvil_mine (also hardhat_mine): mines `blocks` blocks (default 1), `interval` seconds apart (default: the
 * usual block time); the first takes every executable pool transaction.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_mine","params":["0x64","0xc"]} -> null
 */
export const anvil_mine = defineMethod({
  name: 'anvil_mine',
  facts: { dev: true, persists: true },
  params: [optional('blocks', numberOrQuantity), optional('interval', numberOrQuantity)],
  handler: async (ctx: EthContext, blocks, interval) => {
    await ctx.node.mine(blocks ?? 1n, interval);
    return null;
  },
});

/** hardhat_mine: the same as anvil_mine. */
export const hardhat_mine = { ...anvil_mine, name: 'hardhat_mine' };
