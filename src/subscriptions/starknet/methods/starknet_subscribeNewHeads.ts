import { defineMethod, optional } from '../../../rpc/method.js';
import { blockId } from '../../../rollup/params.js';
import type { StarknetWsContext } from './context.js';

/**
 * starknet_subscribeNewHeads (WebSocket): a `starknet_subscriptionNewHeads` notification with the BLOCK_HEADER of
 * each new block. With `block_id` (a hash or number, at most 1,024 blocks back: error 68; unknown or rejected:
 * error 24) the headers from that block to the latest come first; with a tag (`latest`) only new blocks.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_subscribeNewHeads","params":{"block_id":{"block_number":0}}} -> "1"
 */
export const starknet_subscribeNewHeads = defineMethod({
  name: 'starknet_subscribeNewHeads',
  named: true,
  params: [optional('block_id', blockId)],
  handler: (ctx: StarknetWsContext, from) => ctx.subs.subscribeNewHeads(ctx.prefix, from),
});
