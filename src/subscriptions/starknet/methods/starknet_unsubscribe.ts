import { InvalidArgument } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import { describe, type Decoder } from '../../../rpc/params.js';
import type { StarknetWsContext } from './context.js';

/** A subscription id: the decimal string subscribe answered (a JSON integer is taken too: the 0.8 spec types it so here). */
const subscriptionId: Decoder<string> = (value) => {
  if (typeof value === 'string' && value.length <= 40) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  throw new InvalidArgument(`expected a subscription id (a string), got ${describe(value)}`);
};

/**
 * starknet_unsubscribe (WebSocket): ends a subscription of this connection; `true`, or error 66 `Invalid
 * subscription id` when it is not one (ended, or another connection's).
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_unsubscribe","params":{"subscription_id":"1"}} -> true
 */
export const starknet_unsubscribe = defineMethod({
  name: 'starknet_unsubscribe',
  named: true,
  params: [required('subscription_id', subscriptionId)],
  handler: (ctx: StarknetWsContext, id) => ctx.subs.unsubscribe(id),
});
