import { RollupError } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { felt } from '../../params.js';
import { isV09 } from '../../context.js';
import { finalityOf, pendingFinality } from '../format.js';

/**
 * starknet_getTransactionStatus: finality and execution status. A pending transaction is
 * ACCEPTED_ON_L2 (spec 0.8: it has been executed by the sequencer), PRE_CONFIRMED in 0.9; one in a
 * rejected block is REJECTED, without execution status (0.9 has no REJECTED: error 29); error 29 when
 * the hash is unknown.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getTransactionStatus","params":{"transaction_hash":"0x3f1..."}}
 *   -> {"finality_status":"ACCEPTED_ON_L2","execution_status":"SUCCEEDED"}
 */
export const starknet_getTransactionStatus = defineMethod({
  name: 'starknet_getTransactionStatus',
  named: true,
  params: [required('transaction_hash', felt)],
  handler: (ctx: RollupContext, hash) => {
    const found = ctx.chain.transaction(hash);
    if (found === undefined) throw new RollupError(29, 'Transaction hash not found');
    if (found.block?.status === 'REJECTED') {
      // Spec 0.9 has no REJECTED status: a node of that version no longer knows the transaction.
      if (isV09(ctx)) throw new RollupError(29, 'Transaction hash not found');
      return { finality_status: 'REJECTED' };
    }
    const finality_status = found.block === undefined ? pendingFinality(ctx) : finalityOf(found.block);
    const reason = found.tx.revertReason;
    return reason === undefined
      ? { finality_status, execution_status: 'SUCCEEDED' }
      : { finality_status, execution_status: 'REVERTED', failure_reason: reason };
  },
});
