import { defineMethod } from '../../rpc/method.js';
import type { GatewayControl } from '../../gateway/control.js';

/**
 * devgate_getConnections: the gateway's open connections: TCP sockets (HTTP and WebSocket) and WebSocket
 * connections. A soak run or a test checks with it that dropped clients left nothing behind.
 * @example {"jsonrpc":"2.0","id":1,"method":"devgate_getConnections","params":[]} -> {"sockets":1,"websockets":0}
 */
export const devgate_getConnections = defineMethod({
  name: 'devgate_getConnections',
  named: true,
  params: [],
  handler: (ctl: GatewayControl) => ctl.connections(),
});
