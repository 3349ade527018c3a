import { InvalidArgument } from '../../../errors.js';
import { defineMethod, optional } from '../../../rpc/method.js';
import { object } from '../../../rpc/params.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/** evm_mine's one param: a timestamp (hardhat, ganache), or anvil's `{ timestamp, blocks }`. */
const mineOptions = (value: unknown): { timestamp?: bigint; blocks?: bigint } => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { timestamp: numberOrQuantity(value) };
  const o = object(value);
  const read = (name: string) => (Object.hasOwn(o, name) && o[name] !== null && o[name] !== undefined ? numberOrQuantity(o[name]) : undefined);
  const unknown = Object.keys(o).find((k) => k !== 'timestamp' && k !== 'blocks');
  if (unknown !== undefined) throw new InvalidArgument(`unknown option ${JSON.stringify(unknown)}, want timestamp, blocks`);
  return { timestamp: read('timestamp'), blocks: read('blocks') };
};

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
    await ctx.miner.mine(options?.blocks ?? 1n, undefined, options?.timestamp);
    return '0x0';
  },
});
