import { InvalidArgument } from '../../../errors.js';
import { defineMethod, optional } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import type { ForkTarget } from '../../engine/fork/forkReset.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;

/** A block number as clients send it: a JSON number, a 0x quantity or a decimal string. */
function blockNumberOf(v: unknown): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'string' && (/^0x[0-9a-fA-F]{1,16}$/.test(v) || /^[0-9]{1,20}$/.test(v))) return BigInt(v);
  throw new InvalidArgument(`forking.blockNumber must be a block number (a non-negative integer or 0x quantity), got ${JSON.stringify(v)}`);
}

/**
 * The optional param of anvil_reset and hardhat_reset: `{ forking: { jsonRpcUrl?, blockNumber? } }` (hardhat's
 * `httpHeaders` are not taken: say the headers with --fork-headers). Nothing set (viem sends `{ forking: {
 * blockNumber: null } }` for no fork): undefined, the chain as served at start.
 */
const resetOptions = (value: unknown): ForkTarget | undefined => {
  if (absent(value)) return undefined;
  if (!isObject(value)) throw new InvalidArgument('the reset options must be an object: { forking?: { jsonRpcUrl?, blockNumber? } }');
  const unknown = Object.keys(value).filter((k) => k !== 'forking');
  if (unknown.length > 0) throw new InvalidArgument(`unknown reset option ${unknown[0]} (only forking is taken)`);
  const forking = value.forking;
  if (absent(forking)) return undefined;
  if (!isObject(forking)) throw new InvalidArgument('forking must be an object: { jsonRpcUrl?, blockNumber? }');
  const extra = Object.keys(forking).filter((k) => k !== 'jsonRpcUrl' && k !== 'blockNumber' && !absent(forking[k]));
  if (extra.length > 0) throw new InvalidArgument(`unknown forking option ${extra[0]} (only jsonRpcUrl and blockNumber are taken)`);
  const { jsonRpcUrl: url, blockNumber } = forking;
  if (absent(url) && absent(blockNumber)) return undefined;
  if (!absent(url) && typeof url !== 'string') throw new InvalidArgument('forking.jsonRpcUrl must be a string');
  return { url: absent(url) ? undefined : (url as string), blockNumber: absent(blockNumber) ? undefined : blockNumberOf(blockNumber) };
};

/** Goes back to the chain as served at start, or (with `forking`) to a fork of that upstream at that block. */
async function reset(ctx: EthContext, target: ForkTarget | undefined): Promise<void> {
  const forks = ctx.forks;
  if (target === undefined) return ctx.node.reset(undefined, forks?.serveStart);
  if (forks === undefined) throw new InvalidArgument('this network cannot be reset to a fork');
  const { forked, serve } = await forks.open(target);
  await ctx.node.reset(forked.chain, serve);
}

/**
 * anvil_reset (also hardhat_reset): goes back to the chain as served at start (its seeded blocks, pool and mining
 * settings) and forgets every snapshot; with `{ forking: { jsonRpcUrl, blockNumber } }`, serves a fork of that
 * upstream at that block instead (without jsonRpcUrl: the fork served now, at another block; docs/fork.md).
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_reset","params":[]} -> null
 */
export const anvil_reset = defineMethod({
  name: 'anvil_reset',
  facts: { dev: true, persists: true },
  params: [optional('options', resetOptions)],
  handler: async (ctx: EthContext, options) => {
    await reset(ctx, options);
    return null;
  },
});

/** hardhat_reset: the same as anvil_reset (answers true, as hardhat). */
export const hardhat_reset = defineMethod({
  name: 'hardhat_reset',
  facts: { dev: true, persists: true },
  params: [optional('options', resetOptions)],
  handler: async (ctx: EthContext, options) => {
    await reset(ctx, options);
    return true;
  },
});
