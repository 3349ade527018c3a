import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import type { PendingTx } from '../engine/chain/types.js';
import { formatTransaction } from '../format/transaction.js';
import { byAddressAndNonce, viewOf } from './txpool.js';

/**
 * txpool_content: every pool transaction, pending and queued, by sender (EIP-55) and nonce, as geth.
 * @example {"jsonrpc":"2.0","id":1,"method":"txpool_content","params":[]} -> {"pending":{"0xf39F...":{"5":{...}}},"queued":{}}
 */
export const txpool_content = defineMethod({
  name: 'txpool_content',
  params: [],
  handler: async (ctx: EthContext) => {
    const view = await viewOf(ctx);
    const tx = (p: PendingTx) => formatTransaction(p.tx, p.sender, { kind: 'pending' });
    return { pending: byAddressAndNonce(view.pending, tx), queued: byAddressAndNonce(view.queued, tx) };
  },
});
