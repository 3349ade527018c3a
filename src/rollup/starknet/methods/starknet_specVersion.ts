import { defineMethod } from '../../../rpc/method.js';

import { isV09, type RollupContext } from '../../context.js';

/** The Starknet JSON-RPC spec versions this family follows: 0.8 (unversioned and `/rpc/v0_8` paths) and 0.9 (`/rpc/v0_9`). */
export const SPEC_VERSION = '0.8.1';
export const SPEC_VERSION_09 = '0.9.0';

/**
 * starknet_specVersion: the version of the Starknet JSON-RPC spec served.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_specVersion","params":[]} -> "0.8.1" (at /rpc/v0_9: "0.9.0")
 */
export const starknet_specVersion = defineMethod({
  name: 'starknet_specVersion',
  named: true,
  params: [],
  handler: (ctx: RollupContext) => (isV09(ctx) ? SPEC_VERSION_09 : SPEC_VERSION),
});
