/**
 * One WebSocket connection to a rollup network: the Starknet subscription methods (`starknet_subscribe*`,
 * `starknet_unsubscribe`, and their `rollup_` twins) are the connection's own (its subscriptions end with it);
 * every other call goes to the network as over HTTP. `flush()` (after each answer is sent) releases the
 * notifications a new subscription holds, so they follow the answer carrying its id.
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
  push: (text: string) => void,
): NetworkConnection {
  const subs = new StarknetSubscriptions(chain, push);
  const ctx: StarknetWsContext = { subs, prefix: 'starknet' };
  return {
    execute: (call) => (table.get(call.method) === undefined ? network(call) : table.execute(ctx, call)),
    flush: () => subs.flush(),
    close: () => subs.close(),
  };
}
