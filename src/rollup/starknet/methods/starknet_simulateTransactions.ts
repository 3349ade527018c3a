import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import type { BlockId } from '../../engine/types.js';
import { simulationFlags } from '../../params.js';
import { formatFeeEstimate } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';
import { formatTrace } from '../trace.js';
import { broadcastedTransactions, checkTxVersion } from '../versions.js';
import { revealsAny } from './reveals.js';

/**
 * starknet_simulateTransactions: runs transactions (INVOKE, DEPLOY_ACCOUNT, DECLARE) one after the
 * other on a block's state without changing anything, and answers for each its TRANSACTION_TRACE
 * (see src/rollup/starknet/trace.ts) and FEE_ESTIMATE. SKIP_VALIDATE skips the signature check (and
 * the validate invocation); without SKIP_FEE_CHARGE the fee is checked against the bounds and the
 * balance and charged, as a fee_transfer_invocation. Errors: 24 unknown block, 20 undeployed sender,
 * 40 with revert_error and transaction_index.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_simulateTransactions","params":{"block_id":"latest",
 *   "transactions":[{"type":"INVOKE","version":"0x3",...}],"simulation_flags":["SKIP_FEE_CHARGE"]}}
 *   -> [{"transaction_trace":{"type":"INVOKE","execute_invocation":{...},...},"fee_estimation":{...,"unit":"FRI"}}]
 */
export const starknet_simulateTransactions = defineMethod({
  name: 'starknet_simulateTransactions',
  facts: { heavy: true, reveals: revealsAny },
  named: true,
  params: [required('block_id', starknetBlockId), required('transactions', broadcastedTransactions), required('simulation_flags', simulationFlags)],
  handler: (ctx: RollupContext, id, txs, flags) => {
    for (const tx of txs) checkTxVersion(ctx, tx.version);
    const block = resolveBlock(ctx, id);
    const engineId: BlockId = 'hash' in block ? { hash: block.hash } : { tag: 'pending' };
    const opts = { validate: !flags.skipValidate, charge: !flags.skipFeeCharge };
    const config = ctx.chain.config;
    return ctx.chain.simulate(txs, engineId, opts).map((s) => ({
      transaction_trace: formatTrace(s.executed, s.before, s.after, config, opts),
      fee_estimation: formatFeeEstimate(s.estimate.gasConsumed, s.estimate.unit, block.gasPrices, config),
    }));
  },
});
