import { defineMethod, optional } from '../../rpc/method.js';
import { string } from '../../rpc/params.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_getUsage: requests and credits per method, today and in total, of one key (or of every key listed or seen).
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_getUsage","params":["k1"]} -> {"key":"k1","day":"2026-01-01","today":{"requests":1,"credits":5,"methods":{"eth_chainId":{"requests":1,"credits":5}}},...}
 */
export const devgate_getUsage = defineMethod({
  name: 'devgate_getUsage',
  named: true,
  params: [optional('key', string)],
  handler: (ctl: GatewayControl, key) => (key === undefined ? ctl.getUsage() : ctl.getUsage(key)),
});
