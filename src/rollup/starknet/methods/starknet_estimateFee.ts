import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import type { BlockId } from '../../engine/types.js';
import { simulationFlags } from '../../params.js';
import { formatFeeEstimate } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';
import { broadcastedTransactions, checkTxVersion } from '../versions.js';
import { revealsAny } from './reveals.js';

/**
 * starknet_estimateFee (spec order: request, simulation_flags, block_id): one spec 0.8 FEE_ESTIMATE per
 * transaction (INVOKE, DEPLOY_ACCOUNT, DECLARE), each simulated on the state the previous ones left. The simulation charges all
 * gas at the block's L1 gas price, so l1_gas_consumed carries it; L1 data gas and L2 gas are 0 at the
 * block's prices. Fees in FRI for v3, WEI for v1: overall_fee = l1_gas_consumed x l1_gas_price, the
 * fee the transaction is charged. Errors: 24 unknown block, 20 undeployed sender, 40 with revert_error.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_estimateFee","params":{"request":[{"type":"INVOKE","version":"0x100000000000000000000000000000003",...}],
 *   "simulation_flags":["SKIP_VALIDATE"],"block_id":"pending"}}
 */
export const starknet_estimateFee = defineMethod({
  name: 'starknet_estimateFee',
  facts: { heavy: true, reveals: revealsAny },
  named: true,
  params: [required('request', broadcastedTransactions), required('simulation_flags', simulationFlags), required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, request, flags, id) => {
    for (const tx of request) checkTxVersion(ctx, tx.version);
    const block = resolveBlock(ctx, id);
    const engineId: BlockId = 'hash' in block ? { hash: block.hash } : { tag: 'pending' };
    const estimates = ctx.chain.estimateFee(request, engineId, { validate: !flags.skipValidate });
    return estimates.map((e) => formatFeeEstimate(e.gasConsumed, e.unit, block.gasPrices, ctx.chain.config));
  },
});
