import { defineMethod, required } from '../../rpc/method.js';
import { string } from '../../rpc/params.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_removeKey: removes a listed key; true when it existed.
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_removeKey","params":["k1"]} -> true
 */
export const devgate_removeKey = defineMethod({
  name: 'devgate_removeKey',
  named: true,
  params: [required('key', string)],
  handler: (ctl: GatewayControl, key) => ctl.removeKey(key),
});
