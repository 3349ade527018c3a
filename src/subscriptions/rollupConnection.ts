/**
 * One WebSocket connection to a rollup network: the Starknet subscription methods (`starknet_subscribe*`,
 * `starknet_unsubscribe`, and their `rollup_` twins) are the connection's own (its subscriptions end with it);
 * every other call goes to the network as over HTTP. A new subscription holds its notifications until the answer
 * carrying its id has been sent (`flush(sent)`), or at once when the call gets no answer (no id).
 */
import type { RpcCall, RpcResponse } from '../rpc/envelope.js';
import type { MethodTable } from '../rpc/dispatch.js';
import type { NetworkConnection } from '../networkTypes.js';
import type { RollupChain } from '../rollup/engine/chain.js';
import type { StarknetWsContext } from './starknet/methods/context.js';
import { StarknetSubscriptions } from './starknet/starknetSubscriptions.js';

export function rollupConnection(
  chain: RollupChain,
  table: MethodTable<StarknetWsContext>,
  network: (call: RpcCall) => Promise<RpcResponse>,
  push: (text: string) => unknown,
): NetworkConnection {
  const subs = new StarknetSubscriptions(chain, push);
  const ctx: StarknetWsContext = { subs, prefix: 'starknet' };
  /** Answers that carry a new subscription's id, until they are sent. */
  const answering = new WeakMap<RpcResponse, string>();
  return {
    execute: (call) => {
      if (table.get(call.method) === undefined) return network(call);
      return table.execute(ctx, call).then((response) => {
        const id = 'result' in response && typeof response.result === 'string' ? response.result : undefined;
        if (id !== undefined) {
          if (call.id === undefined) subs.release(id);
          else answering.set(response, id);
        }
        return response;
      });
    },
    flush: (sent) => {
      for (const response of Array.isArray(sent) ? sent : [sent]) {
        const id = answering.get(response);
        if (id !== undefined) subs.release(id);
      }
    },
    close: () => subs.close(),
  };
}
