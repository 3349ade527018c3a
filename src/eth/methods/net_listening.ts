import { defineMethod } from '../../rpc/method.js';

/**
 * net_listening: whether the node listens for network connections; always true.
 * @example {"jsonrpc":"2.0","id":1,"method":"net_listening","params":[]} -> true
 */
export const net_listening = defineMethod({
  name: 'net_listening',
  params: [],
  handler: () => true,
});
