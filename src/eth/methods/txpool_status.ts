import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { viewOf } from './txpool.js';

/**
 * txpool_status: how many pool transactions are pending (executable) and queued (behind a nonce gap), as geth.
 * @example {"jsonrpc":"2.0","id":1,"method":"txpool_status","params":[]} -> {"pending":"0x1","queued":"0x0"}
 */
export const txpool_status = defineMethod({
  name: 'txpool_status',
  params: [],
  handler: async (ctx: EthContext) => {
    const view = await viewOf(ctx);
    const count = (m: Map<string, unknown[]>) => [...m.values()].reduce((n, l) => n + l.length, 0);
    return { pending: quantityHex(count(view.pending)), queued: quantityHex(count(view.queued)) };
  },
});
