/**
 * One WebSocket connection to an eth network: eth_subscribe and eth_unsubscribe are the connection's own (its
 * subscriptions end with it); every other call goes to the network's dispatch table as over HTTP.
 */
import { failure, success, type RpcCall, type RpcResponse } from '../rpc/envelope.js';
import { toRpcError } from '../rpc/errors.js';
import type { MethodTable } from '../rpc/dispatch.js';
import type { NetworkConnection } from '../networkTypes.js';
import type { EthContext } from '../eth/context.js';
import { EthSubscriptions } from './ethSubscriptions.js';

export function ethConnection(table: MethodTable<EthContext>, ctx: EthContext, push: (text: string) => void): NetworkConnection {
  const subs = new EthSubscriptions(ctx.chain, push);
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
