import { defineMethod, required } from '../../../rpc/method.js';
import { bool } from '../../../rpc/params.js';
import type { EthContext } from '../../context.js';

/**
 * evm_setAutomine (also anvil_setAutomine): turns automine on or off; with it off, sends wait in the pool
 * until evm_mine / anvil_mine or interval mining.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_setAutomine","params":[false]} -> null
 */
export const evm_setAutomine = defineMethod({
  name: 'evm_setAutomine',
  params: [required('enabled', bool)],
  handler: (ctx: EthContext, enabled) => {
    ctx.miner.setAutomine(enabled);
    return null;
  },
});

/** anvil_setAutomine: the same as evm_setAutomine. */
export const anvil_setAutomine = { ...evm_setAutomine, name: 'anvil_setAutomine' };
