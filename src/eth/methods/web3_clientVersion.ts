import { defineMethod } from '../../rpc/method.js';
import { VERSION } from '../../version.js';

/**
 * web3_clientVersion: `devgate/<version>`.
 * @example {"jsonrpc":"2.0","id":1,"method":"web3_clientVersion","params":[]} -> "devgate/0.1.0"
 */
export const web3_clientVersion = defineMethod({
  name: 'web3_clientVersion',
  params: [],
  handler: () => `devgate/${VERSION}`,
});
