import { RollupError } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import type { ExecutedTx } from '../../engine/types.js';
import { feltHex } from '../../format.js';
import { l1TransactionHash } from '../../params.js';
import { finalityOf, pendingFinality, type Finality } from '../format.js';

/**
 * starknet_getMessagesStatus: the L1_HANDLER transactions that consumed the messages an L1 transaction
 * sent (delivered with devnet_postmanSendMessageToL2), in order, each with its finality and execution
 * status. Error 29 when no message of that L1 transaction reached the chain.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getMessagesStatus","params":{"transaction_hash":"0x<L1 tx hash>"}}
 *   -> [{"transaction_hash":"0x...","finality_status":"ACCEPTED_ON_L2","execution_status":"SUCCEEDED"}]
 */
export const starknet_getMessagesStatus = defineMethod({
  name: 'starknet_getMessagesStatus',
  named: true,
  params: [required('transaction_hash', l1TransactionHash)],
  handler: (ctx: RollupContext, l1Hash) => {
    const found: { tx: ExecutedTx; finality: Finality }[] = [];
    const take = (txs: readonly ExecutedTx[], finality: Finality) => {
      for (const t of txs) if (t.tx.kind === 'L1_HANDLER' && t.tx.l1TransactionHash === l1Hash) found.push({ tx: t, finality });
    };
    const head = ctx.chain.head();
    for (let n = 0n; n <= head.number; n++) {
      const b = ctx.chain.block({ number: n })!;
      if ('hash' in b) take(b.transactions, finalityOf(b));
    }
    take(ctx.chain.pending().transactions, pendingFinality(ctx));
    if (found.length === 0) throw new RollupError(29, 'Transaction hash not found');
    return found.map((f) => ({ transaction_hash: feltHex(f.tx.hash), finality_status: f.finality, execution_status: 'SUCCEEDED' }));
  },
});
