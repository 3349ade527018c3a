import { defineMethod, optional } from '../../rpc/method.js';
import { RpcError } from '../../rpc/errors.js';
import { subscribeReveals } from './reveals.js';

/** geth's answer to eth_subscribe and eth_unsubscribe over HTTP, where nothing can be pushed. */
export const notificationsNotSupported = () => new RpcError(-32601, 'notifications not supported');

/**
 * eth_subscribe: over WebSocket the connection serves it (src/subscriptions/ethSubscriptions.ts: newHeads, logs,
 * newPendingTransactions, syncing) and pushes `eth_subscription` notifications; over HTTP it answers geth's
 * -32601 `notifications not supported`.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]} -> "0x1" (WebSocket)
 */
export const eth_subscribe = defineMethod({
  name: 'eth_subscribe',
  facts: { reveals: subscribeReveals },
  params: [optional('kind', (v: unknown) => v), optional('options', (v: unknown) => v)],
  handler: (_ctx: unknown, _kind, _options) => {
    throw notificationsNotSupported();
  },
});
