import { defineMethod } from '../../rpc/method.js';

/** The Otterscan API level devgate serves (Erigon's and anvil's: 8). */
export const OTS_API_LEVEL = 8;

/**
 * ots_getApiLevel: 8, the Otterscan API level of Erigon and anvil (Otterscan refuses a node below the level it needs).
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_getApiLevel","params":[]} -> 8
 */
export const ots_getApiLevel = defineMethod({
  name: 'ots_getApiLevel',
  params: [],
  handler: () => OTS_API_LEVEL,
});
