import { defineMethod, required } from '../../../rpc/method.js';
import { bool } from '../../../rpc/params.js';
import { nodeLogOf } from '../../../log/nodeLog.js';
import type { EthContext } from '../../context.js';

/**
 * anvil_setLoggingEnabled (also hardhat_setLoggingEnabled): turns the node log (docs/dropin.md "The node log": each
 * transaction, block and console.log call printed after the banner) off and on, for the whole gateway as anvil's
 * for its node. A gateway started without a log (start()'s default) has nothing to turn on: the call answers null
 * and changes nothing.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setLoggingEnabled","params":[false]} -> null
 */
export const anvil_setLoggingEnabled = defineMethod({
  name: 'anvil_setLoggingEnabled',
  facts: { dev: true },
  params: [required('enabled', bool)],
  handler: async (ctx: EthContext, enabled) => {
    await nodeLogOf(ctx.chain)?.setEnabled(enabled);
    return null;
  },
});

/** hardhat_setLoggingEnabled: the same as anvil_setLoggingEnabled. */
export const hardhat_setLoggingEnabled = { ...anvil_setLoggingEnabled, name: 'hardhat_setLoggingEnabled' };
