import { defineMethod, required } from '../../rpc/method.js';
import { jsonObject } from '../params.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_setKey: adds a key, or replaces the key of the same name (fields as in a keys file; a secret is given
 * anew each time); answers the key as devgate_listKeys shows it (`"secretSet": true`, never the secret).
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_setKey","params":[{"key":"k1","plan":"free","limits":{"creditsPerSecond":100}}]} -> {"key":"k1",...}
 */
export const devgate_setKey = defineMethod({
  name: 'devgate_setKey',
  named: true,
  params: [required('key', jsonObject)],
  handler: (ctl: GatewayControl, spec) => ctl.setKey(spec as never),
});
