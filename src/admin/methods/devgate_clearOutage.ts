import { defineMethod, required } from '../../rpc/method.js';
import { string } from '../../rpc/params.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_clearOutage: ends or cancels the outage of a network; true when there was one.
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_clearOutage","params":["mainnet"]} -> true
 */
export const devgate_clearOutage = defineMethod({
  name: 'devgate_clearOutage',
  named: true,
  params: [required('network', string)],
  handler: (ctl: GatewayControl, network) => ctl.clearOutage(network),
});
