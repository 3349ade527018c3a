import { defineMethod, optional } from '../../rpc/method.js';
import { bool } from '../../rpc/params.js';
import type { RollupContext } from '../context.js';
import { RollupControls } from '../engine/controls.js';

/**
 * devnet_restart: goes back to the chain as served at start (its seeded blocks and statuses, state and
 * pending transactions) and forgets every snapshot. `restart_l1_to_l2_messaging` is taken for
 * starknet-devnet's sake: devgate has no L1-L2 messaging to restart. Answers {} as starknet-devnet does.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_restart"} -> {}
 */
export const devnet_restart = defineMethod({
  name: 'devnet_restart',
  facts: { dev: true },
  named: true,
  params: [optional('restart_l1_to_l2_messaging', bool)],
  handler: (ctx: RollupContext, _messaging) => {
    RollupControls.of(ctx.chain).snapshots.restart();
    return {};
  },
});
