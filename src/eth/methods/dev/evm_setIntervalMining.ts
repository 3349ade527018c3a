import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * evm_setIntervalMining (also anvil_setIntervalMining): mines a block every `ms` milliseconds (empty ones
 * too); 0 turns interval mining off. Automine is left as it is.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_setIntervalMining","params":[5000]} -> null
 */
export const evm_setIntervalMining = defineMethod({
  name: 'evm_setIntervalMining',
  facts: { dev: true, persists: true },
  params: [required('ms', numberOrQuantity)],
  handler: (ctx: EthContext, ms) => {
    ctx.miner.setIntervalMining(Number(ms));
    return null;
  },
});

/** anvil_setIntervalMining: the same as evm_setIntervalMining (anvil's unit is seconds there; see docs/dev-methods.md "Sending and mining"). */
export const anvil_setIntervalMining = defineMethod({
  name: 'anvil_setIntervalMining',
  facts: { dev: true, persists: true },
  params: [required('seconds', numberOrQuantity)],
  handler: (ctx: EthContext, seconds) => {
    ctx.miner.setIntervalMining(Number(seconds) * 1000);
    return null;
  },
});
