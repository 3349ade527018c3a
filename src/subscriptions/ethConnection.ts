/**
 * One WebSocket connection to an eth network: eth_subscribe and eth_unsubscribe are the connection's own (its
 * subscriptions end with it); every other call goes to the network's dispatch table as over HTTP.
 */
import { failure, success, type RpcCall, type RpcResponse } from '../rpc/envelope.js';
import { toRpcError } from '../rpc/errors.js';
import type { MethodTable } from '../rpc/dispatch.js';
import type { ConnectionCaller, NetworkConnection } from '../networkTypes.js';
import { LimitExceeded } from '../errors.js';
import type { EthContext } from '../eth/context.js';
import { EthSubscriptions, type SubscriptionQuota } from './ethSubscriptions.js';

/** Subscriptions each key holds on a network, over all its connections. */
const held = new WeakMap<EthContext, Map<string, number>>();

/** A key's place among its subscriptions on the network: at most `caller.maxSubscriptions()` (-32005 past it). */
function quotaOf(ctx: EthContext, caller: ConnectionCaller): SubscriptionQuota {
  let counts = held.get(ctx);
  if (counts === undefined) held.set(ctx, (counts = new Map()));
  const map = counts;
  return {
    take: () => {
      const n = map.get(caller.key) ?? 0;
      const max = caller.maxSubscriptions();
      if (n >= max)
        throw new LimitExceeded(`too many subscriptions for this key (at most ${max} on this network); eth_unsubscribe some or close connections`, {
          limit: max,
        });
      map.set(caller.key, n + 1);
    },
    give: () => {
      const n = (map.get(caller.key) ?? 1) - 1;
      if (n <= 0) map.delete(caller.key);
      else map.set(caller.key, n);
    },
  };
}

export function ethConnection(table: MethodTable<EthContext>, ctx: EthContext, push: (text: string) => unknown, caller?: ConnectionCaller): NetworkConnection {
  const subs = new EthSubscriptions(ctx.chain, push, undefined, caller === undefined ? undefined : quotaOf(ctx, caller));
  const own = (call: RpcCall, run: () => unknown): Promise<RpcResponse> => {
    try {
      return Promise.resolve(success(call.id ?? null, run()));
    } catch (err) {
      return Promise.resolve(failure(call.id ?? null, toRpcError(err)));
    }
  };
  return {
    execute(call, origin) {
      if (call.method === 'eth_subscribe') return own(call, () => subs.subscribe(call.params));
      if (call.method === 'eth_unsubscribe') return own(call, () => subs.unsubscribe(Array.isArray(call.params) ? call.params[0] : undefined));
      return table.execute(origin !== undefined && table.get(call.method)?.facts?.filter ? { ...ctx, origin } : ctx, call);
    },
    close: () => subs.close(),
  };
}
