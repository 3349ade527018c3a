/**
 * The Starknet WebSocket methods (spec 0.8 starknet_ws_api.json) of a rollup network, under its own prefix
 * (`starknet_`) and the `rollup_` alias; each call's handler learns the prefix it was called with, for the names
 * of its notifications.
 */
import { MethodTable } from '../../../rpc/dispatch.js';
import type { MethodDef } from '../../../rpc/method.js';
import type { StarknetWsContext } from './context.js';
import { starknet_subscribeEvents } from './starknet_subscribeEvents.js';
import { starknet_subscribeNewHeads } from './starknet_subscribeNewHeads.js';
import { starknet_subscribePendingTransactions } from './starknet_subscribePendingTransactions.js';
import { starknet_subscribeTransactionStatus } from './starknet_subscribeTransactionStatus.js';
import { starknet_unsubscribe } from './starknet_unsubscribe.js';

export const STARKNET_WS: readonly MethodDef<StarknetWsContext, any>[] = [
  starknet_subscribeNewHeads,
  starknet_subscribeEvents,
  starknet_subscribeTransactionStatus,
  starknet_subscribePendingTransactions,
  starknet_unsubscribe,
];

/** The table of a rollup network whose own prefix is `prefix`: its names and the `rollup_` ones. */
export function starknetWsMethods(prefix: string): MethodTable<StarknetWsContext> {
  const table = new MethodTable<StarknetWsContext>();
  for (const p of new Set([prefix, 'rollup'])) {
    for (const def of STARKNET_WS) {
      table.add({
        ...def,
        name: def.name.replace(/^starknet_/, `${p}_`),
        handler: (ctx: StarknetWsContext, ...args: unknown[]) => def.handler({ ...ctx, prefix: p }, ...args),
      });
    }
  }
  return table;
}
