/**
 * The admin interface: JSON-RPC at `/admin`, methods `devgate_*`, the same operations as the
 * start() handle's `policy` (src/gateway/control.ts), so test suites in any language can drive
 * keys, usage, outages and limits.
 */
import type { GatewayControl } from '../gateway/control.js';
import { MethodTable } from '../rpc/dispatch.js';
import { devgate_clearOutage } from './methods/devgate_clearOutage.js';
import { devgate_getConnections } from './methods/devgate_getConnections.js';
import { devgate_getLimits } from './methods/devgate_getLimits.js';
import { devgate_getUsage } from './methods/devgate_getUsage.js';
import { devgate_listKeys } from './methods/devgate_listKeys.js';
import { devgate_listOutages } from './methods/devgate_listOutages.js';
import { devgate_removeKey } from './methods/devgate_removeKey.js';
import { devgate_resetUsage } from './methods/devgate_resetUsage.js';
import { devgate_setKey } from './methods/devgate_setKey.js';
import { devgate_setKeysMode } from './methods/devgate_setKeysMode.js';
import { devgate_setLimits } from './methods/devgate_setLimits.js';
import { devgate_setOutage } from './methods/devgate_setOutage.js';

export function adminMethods(): MethodTable<GatewayControl> {
  return new MethodTable<GatewayControl>([
    devgate_listKeys,
    devgate_setKey,
    devgate_removeKey,
    devgate_setKeysMode,
    devgate_getUsage,
    devgate_resetUsage,
    devgate_setOutage,
    devgate_clearOutage,
    devgate_listOutages,
    devgate_getLimits,
    devgate_setLimits,
    devgate_getConnections,
  ]);
}
