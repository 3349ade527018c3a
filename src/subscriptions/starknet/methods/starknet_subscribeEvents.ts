import { InvalidArgument, RollupError } from '../../../errors.js';
import { defineMethod, optional } from '../../../rpc/method.js';
import { describe, type Decoder } from '../../../rpc/params.js';
import type { Felt } from '../../../rollup/engine/types.js';
import { blockId, felt } from '../../../rollup/params.js';
import { MAX_KEYS } from '../../../rollup/starknet/events.js';
import type { StarknetWsContext } from './context.js';

/** EVENT_KEYS: per key position, the allowed values (an empty list: any); more than 16 positions: error 34. */
const eventKeys: Decoder<Felt[][]> = (value) => {
  if (!Array.isArray(value) || !value.every(Array.isArray)) throw new InvalidArgument(`expected an array of arrays of felts, got ${describe(value)}`);
  if (value.length > MAX_KEYS) throw new RollupError(34, 'Too many keys provided in a filter');
  return value.map((ks: unknown[], i) =>
    ks.map((k, j) => {
      try {
        return felt(k);
      } catch (err) {
        throw new InvalidArgument(`${i}: ${j}: ${(err as Error).message}`);
      }
    }),
  );
};

/**
 * starknet_subscribeEvents (WebSocket): a `starknet_subscriptionEvents` notification with each EMITTED_EVENT of
 * every new block (with its block_hash, block_number and transaction_hash) emitted by `from_address` whose keys
 * match `keys`. From `block_id` (default latest; at most 1,024 blocks back) the events of that block and the later
 * ones come first. Events of pending transactions are sent when their block is sealed.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_subscribeEvents","params":{"from_address":"0x49d3...","keys":[["0x99cd..."]]}} -> "2"
 */
export const starknet_subscribeEvents = defineMethod({
  name: 'starknet_subscribeEvents',
  named: true,
  params: [optional('from_address', felt), optional('keys', eventKeys), optional('block_id', blockId)],
  handler: (ctx: StarknetWsContext, address, keys, from) => ctx.subs.subscribeEvents(ctx.prefix, { address, keys: keys ?? [] }, from),
});
