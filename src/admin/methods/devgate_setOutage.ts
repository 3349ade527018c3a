import { defineMethod, optional, required } from '../../rpc/method.js';
import { string } from '../../rpc/params.js';
import { jsonObject } from '../params.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_setOutage: starts an outage of a network now, or schedules one (afterRequests or at), for every method or a list, for durationMs or until cleared.
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_setOutage","params":["mainnet",{"methods":["eth_getBlockByHash"],"afterRequests":10,"durationMs":60000}]} -> {"network":"mainnet","status":"scheduled",...}
 */
export const devgate_setOutage = defineMethod({
  name: 'devgate_setOutage',
  named: true,
  params: [required('network', string), optional('outage', jsonObject)],
  handler: (ctl: GatewayControl, network, spec) => ctl.setOutage(network, spec as never),
});
