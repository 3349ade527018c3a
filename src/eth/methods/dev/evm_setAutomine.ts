import { defineMethod, optional, required } from '../../../rpc/method.js';
import { bool } from '../../../rpc/params.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * evm_setAutomine (also anvil_setAutomine): turns automine on or off; with it off, sends wait in the pool
 * until evm_mine / anvil_mine or interval mining.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_setAutomine","params":[false]} -> null
 */
export const evm_setAutomine = defineMethod({
  name: 'evm_setAutomine',
  facts: { dev: true, persists: true },
  params: [required('enabled', bool)],
  handler: (ctx: EthContext, enabled) => {
    ctx.miner.setAutomine(enabled);
    return null;
  },
});

/** anvil_setAutomine: the same as evm_setAutomine. */
export const anvil_setAutomine = { ...evm_setAutomine, name: 'anvil_setAutomine' };

/** miner_start: ganache's way to turn automine on (viem's setAutomine(true) in ganache mode); its thread count is ignored. */
export const miner_start = defineMethod({
  name: 'miner_start',
  facts: { dev: true, persists: true },
  params: [optional('threads', numberOrQuantity)],
  handler: (ctx: EthContext, _threads) => {
    ctx.miner.setAutomine(true);
    return true;
  },
});

/** miner_stop: ganache's way to turn automine off (viem's setAutomine(false) in ganache mode). */
export const miner_stop = defineMethod({
  name: 'miner_stop',
  facts: { dev: true, persists: true },
  params: [],
  handler: (ctx: EthContext) => {
    ctx.miner.setAutomine(false);
    return true;
  },
});
