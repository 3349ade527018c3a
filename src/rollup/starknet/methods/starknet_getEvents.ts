import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { eventFilter, findEvents } from '../events.js';
import { eventFilterReveals } from './reveals.js';

/**
 * starknet_getEvents: events by block range, emitting address and keys, `chunk_size` per page with a
 * `continuation_token` for the next. Errors: 24 unknown block, 31 chunk_size over 1024, 33 bad token, 34 over 16 key positions.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getEvents","params":{"filter":{"from_block":{"block_number":0},"to_block":"latest",
 *   "address":"0x49d3...","keys":[["0x99cd..."]],"chunk_size":10}}} -> {"events":[...],"continuation_token":"10"}
 */
export const starknet_getEvents = defineMethod({
  name: 'starknet_getEvents',
  facts: { reveals: eventFilterReveals },
  named: true,
  params: [required('filter', eventFilter)],
  handler: (ctx: RollupContext, filter) => findEvents(ctx, filter),
});
