import { InvalidArgument } from '../../../errors.js';
import { defineMethod, optional } from '../../../rpc/method.js';
import { bool, describe, type Decoder } from '../../../rpc/params.js';
import type { Felt } from '../../../rollup/engine/types.js';
import { felt } from '../../../rollup/params.js';
import type { StarknetWsContext } from './context.js';

const addresses: Decoder<Felt[]> = (value) => {
  if (!Array.isArray(value)) throw new InvalidArgument(`expected an array of addresses, got ${describe(value)}`);
  return value.map((a, i) => {
    try {
      return felt(a);
    } catch (err) {
      throw new InvalidArgument(`${i}: ${(err as Error).message}`);
    }
  });
};

/**
 * starknet_subscribePendingTransactions (WebSocket): a `starknet_subscriptionPendingTransactions` notification for
 * each transaction entering the pending block (those already in it come first): its hash, or with
 * `transaction_details: true` the whole transaction (TXN_WITH_HASH); only from the `sender_address` list when given
 * (at most 1,024 addresses: error 67).
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_subscribePendingTransactions","params":{"transaction_details":true}} -> "4"
 */
export const starknet_subscribePendingTransactions = defineMethod({
  name: 'starknet_subscribePendingTransactions',
  named: true,
  params: [optional('transaction_details', bool), optional('sender_address', addresses)],
  handler: (ctx: StarknetWsContext, details, senders) => ctx.subs.subscribePendingTransactions(ctx.prefix, details ?? false, senders),
});
