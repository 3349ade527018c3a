import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import type { PendingTx } from '../engine/chain/types.js';
import { formatTransaction } from '../format/transaction.js';
import { addressParam } from '../params.js';
import { viewOf } from './txpool.js';

/**
 * txpool_contentFrom: one sender's pool transactions, pending and queued, by nonce, as geth.
 * @example {"jsonrpc":"2.0","id":1,"method":"txpool_contentFrom","params":["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"]} -> {"pending":{"5":{...}},"queued":{}}
 */
export const txpool_contentFrom = defineMethod({
  name: 'txpool_contentFrom',
  params: [required('address', addressParam)],
  handler: async (ctx: EthContext, address) => {
    const view = await viewOf(ctx);
    const key = address.toString();
    const nonces = (list: readonly PendingTx[] | undefined) => {
      const out: Record<string, unknown> = {};
      for (const p of list ?? []) out[p.tx.nonce.toString(10)] = formatTransaction(p.tx, p.sender, { kind: 'pending' });
      return out;
    };
    return { pending: nonces(view.pending.get(key)), queued: nonces(view.queued.get(key)) };
  },
});
