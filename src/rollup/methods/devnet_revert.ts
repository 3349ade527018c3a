import { defineMethod, required } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { RollupControls } from '../engine/controls.js';
import { snapshotId } from './devnetParams.js';

/**
 * devnet_revert: goes back to snapshot `id` as evm_revert does (blocks sealed since are forgotten, a
 * reused block number answers the new block), deletes it and every later snapshot and answers true;
 * an unknown id answers false and changes nothing.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_revert","params":{"id":"0x0"}} -> true
 */
export const devnet_revert = defineMethod({
  name: 'devnet_revert',
  facts: { dev: true },
  named: true,
  params: [required('id', snapshotId)],
  handler: (ctx: RollupContext, id) => RollupControls.of(ctx.chain).snapshots.revert(id) !== false,
});
