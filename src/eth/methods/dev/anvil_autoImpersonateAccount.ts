import { defineMethod, required } from '../../../rpc/method.js';
import { bool } from '../../../rpc/params.js';
import type { EthContext } from '../../context.js';
import { impersonationOf } from './snapshotsOf.js';

/**
 * anvil_autoImpersonateAccount: with true, eth_sendTransaction from any address is sent without its key.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_autoImpersonateAccount","params":[true]} -> null
 */
export const anvil_autoImpersonateAccount = defineMethod({
  name: 'anvil_autoImpersonateAccount',
  facts: { dev: true, persists: true },
  params: [required('enabled', bool)],
  handler: (ctx: EthContext, enabled) => {
    impersonationOf(ctx).auto = enabled;
    return null;
  },
});
