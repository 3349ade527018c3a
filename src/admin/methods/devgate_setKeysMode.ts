import { defineMethod, required } from '../../rpc/method.js';
import { jsonObject } from '../params.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_setKeysMode: whether keys not listed are accepted (open) and on which plan (defaultPlan).
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_setKeysMode","params":[{"open":true,"defaultPlan":"growth"}]} -> {"open":true,"defaultPlan":"growth"}
 */
export const devgate_setKeysMode = defineMethod({
  name: 'devgate_setKeysMode',
  named: true,
  params: [required('mode', jsonObject)],
  handler: (ctl: GatewayControl, mode) => ctl.setKeysMode(mode as never),
});
