import { defineMethod } from '../../rpc/method.js';

/**
 * eth_syncing: false (devgate is always in sync with itself).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_syncing","params":[]} -> false
 */
export const eth_syncing = defineMethod({
  name: 'eth_syncing',
  params: [],
  handler: () => false,
});
