import { defineMethod, required } from '../../rpc/method.js';
import { jsonObject } from '../params.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_setLimits: changes some request limits (the rest keep their values); gives all of them.
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_setLimits","params":[{"maxBatch":10}]} -> {"maxBatch":10,...}
 */
export const devgate_setLimits = defineMethod({
  name: 'devgate_setLimits',
  named: true,
  params: [required('limits', jsonObject)],
  handler: (ctl: GatewayControl, change) => ctl.setLimits(change as never),
});
