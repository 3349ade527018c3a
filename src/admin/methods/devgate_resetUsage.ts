import { defineMethod, optional } from '../../rpc/method.js';
import { string } from '../../rpc/params.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_resetUsage: forgets the usage and rate window of one key, or of every key.
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_resetUsage","params":["k1"]} -> true
 */
export const devgate_resetUsage = defineMethod({
  name: 'devgate_resetUsage',
  named: true,
  params: [optional('key', string)],
  handler: (ctl: GatewayControl, key) => (ctl.resetUsage(key), true),
});
