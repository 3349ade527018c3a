import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * evm_revert (also anvil_revert): goes back to a snapshot (blocks above it leave the chain; state, pool, mining
 * mode and time are as they were) and deletes it and every later snapshot; answers false for an unknown id.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_revert","params":["0x0"]} -> true
 */
export const evm_revert = defineMethod({
  name: 'evm_revert',
  facts: { dev: true, persists: true },
  params: [required('id', numberOrQuantity)],
  handler: (ctx: EthContext, id) => ctx.node.revert(id),
});

/** anvil_revert: the same as evm_revert. */
export const anvil_revert = { ...evm_revert, name: 'anvil_revert' };
