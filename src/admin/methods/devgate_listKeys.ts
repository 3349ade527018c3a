import { defineMethod } from '../../rpc/method.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_listKeys: the configured keys, whether unlisted keys are accepted (open) and on which plan. A secret is
 * never shown: a key that has one lists `"secretSet": true`.
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_listKeys","params":[]} -> {"open":false,"defaultPlan":"developer","keys":[{"key":"k1","plan":"free","secretSet":true}]}
 */
export const devgate_listKeys = defineMethod({
  name: 'devgate_listKeys',
  named: true,
  params: [],
  handler: (ctl: GatewayControl) => ctl.listKeys(),
});
