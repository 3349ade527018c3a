import { defineMethod, optional } from '../../rpc/method.js';
import { notificationsNotSupported } from './eth_subscribe.js';

/**
 * eth_unsubscribe: ends a subscription of the WebSocket connection (answers whether it was one); over HTTP,
 * -32601 `notifications not supported`, as geth.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_unsubscribe","params":["0x1"]} -> true (WebSocket)
 */
export const eth_unsubscribe = defineMethod({
  name: 'eth_unsubscribe',
  params: [optional('id', (v: unknown) => v)],
  handler: (_ctx: unknown, _id) => {
    throw notificationsNotSupported();
  },
});
