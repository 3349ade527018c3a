import { defineMethod } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';

/**
 * starknet_syncing: always `false`; devgate is the sequencer of its own chain and never syncs.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_syncing","params":[]} -> false
 */
export const starknet_syncing = defineMethod({
  name: 'starknet_syncing',
  named: true,
  params: [],
  handler: (_ctx: RollupContext) => false,
});
