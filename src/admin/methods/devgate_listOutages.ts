import { defineMethod } from '../../rpc/method.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_listOutages: the outages scheduled or under way.
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_listOutages","params":[]} -> [{"network":"mainnet","status":"active","methods":null,"startsAt":0}]
 */
export const devgate_listOutages = defineMethod({
  name: 'devgate_listOutages',
  named: true,
  params: [],
  handler: (ctl: GatewayControl) => ctl.listOutages(),
});
