import { defineMethod, required } from '../../../rpc/method.js';
import { felt } from '../../../rollup/params.js';
import type { StarknetWsContext } from './context.js';

/**
 * starknet_subscribeTransactionStatus (WebSocket): `starknet_subscriptionTransactionStatus` notifications
 * (`{transaction_hash, status: {finality_status, execution_status}}`) with the transaction's status at once when it
 * is known, then at each change: ACCEPTED_ON_L2 when it enters the pending block, ACCEPTED_ON_L1, or REJECTED (with
 * a reorg notification first) when its block is rejected. An unknown hash is no error: its first notification
 * comes when it is submitted.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_subscribeTransactionStatus","params":{"transaction_hash":"0x3f1..."}} -> "3"
 */
export const starknet_subscribeTransactionStatus = defineMethod({
  name: 'starknet_subscribeTransactionStatus',
  named: true,
  params: [required('transaction_hash', felt)],
  handler: (ctx: StarknetWsContext, hash) => ctx.subs.subscribeTransactionStatus(ctx.prefix, hash),
});
