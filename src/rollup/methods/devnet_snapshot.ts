import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { RollupControls } from '../engine/controls.js';

/**
 * devnet_snapshot: saves the rollup chain (blocks and statuses, state, pending transactions, time, gas
 * prices) as evm_snapshot does; answers the snapshot's id, a quantity from 0x0, for devnet_revert.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_snapshot"} -> "0x0"
 */
export const devnet_snapshot = defineMethod({
  name: 'devnet_snapshot',
  facts: { dev: true },
  named: true,
  params: [],
  handler: (ctx: RollupContext) => quantityHex(RollupControls.of(ctx.chain).snapshots.take()),
});
