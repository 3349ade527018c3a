import { defineMethod } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';

/** The Starknet JSON-RPC spec version this family follows. */
export const SPEC_VERSION = '0.8.1';

/**
 * starknet_specVersion: the version of the Starknet JSON-RPC spec served.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_specVersion","params":[]} -> "0.8.1"
 */
export const starknet_specVersion = defineMethod({
  name: 'starknet_specVersion',
  named: true,
  params: [],
  handler: (_ctx: RollupContext) => SPEC_VERSION,
});
