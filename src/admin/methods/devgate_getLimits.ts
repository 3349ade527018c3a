import { defineMethod } from '../../rpc/method.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_getLimits: the request limits: batch size, body and message sizes, HTTP timeouts.
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_getLimits","params":[]} -> {"maxBatch":1000,"maxBodyBytes":5242880,...}
 */
export const devgate_getLimits = defineMethod({
  name: 'devgate_getLimits',
  named: true,
  params: [],
  handler: (ctl: GatewayControl) => ctl.getLimits(),
});
