import { InvalidArgument } from '../../../errors.js';
import { defineMethod, optional } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';

/** anvil_reset's optional param: `{}` or `{ forking: {} }` with nothing set (viem sends `{ forking: { blockNumber: null } }`); devgate forks no remote chain. */
const resetOptions = (value: unknown): undefined => {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const empty = (v: unknown) => isObject(v) && Object.values(v).every((x) => x === null || x === undefined);
  if (isObject(value) && Object.keys(value).every((k) => k === 'forking') && (value.forking === undefined || value.forking === null || empty(value.forking)))
    return undefined;
  throw new InvalidArgument('devgate does not fork remote chains: anvil_reset takes no forking options and goes back to the seeded chain');
};

/**
 * anvil_reset (also hardhat_reset): goes back to the chain as served at start (its seeded blocks, pool and mining
 * settings) and forgets every snapshot.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_reset","params":[]} -> null
 */
export const anvil_reset = defineMethod({
  name: 'anvil_reset',
  facts: { dev: true, persists: true },
  params: [optional('options', resetOptions)],
  handler: async (ctx: EthContext, _options) => {
    await ctx.node.reset();
    return null;
  },
});

/** hardhat_reset: the same as anvil_reset (answers true, as hardhat). */
export const hardhat_reset = defineMethod({
  name: 'hardhat_reset',
  facts: { dev: true, persists: true },
  params: [optional('options', resetOptions)],
  handler: async (ctx: EthContext, _options) => {
    await ctx.node.reset();
    return true;
  },
});
