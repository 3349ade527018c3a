import { quantityHex } from '../../../hex.js';
import { defineMethod } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';

/**
 * evm_snapshot (also anvil_snapshot): saves blocks, state, pool, mining mode and time; answers the snapshot's
 * id (a quantity, from 0x0) for evm_revert.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_snapshot","params":[]} -> "0x0"
 */
export const evm_snapshot = defineMethod({
  name: 'evm_snapshot',
  facts: { dev: true, persists: true },
  params: [],
  handler: async (ctx: EthContext) => quantityHex(await ctx.node.snapshot()),
});

/** anvil_snapshot: the same as evm_snapshot. */
export const anvil_snapshot = { ...evm_snapshot, name: 'anvil_snapshot' };
