import { InvalidArgument } from '../../errors.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { arrayOf, type Decoder } from '../../rpc/params.js';
import type { RollupContext } from '../context.js';
import type { InvokeTransaction } from '../engine/types.js';
import { formatEstimate } from '../format.js';
import { blockId, invokeTransaction, simulationFlags } from '../params.js';
import { revealsAny } from '../starknet/methods/reveals.js';

/**
 * rollup_estimateFee: one estimate per INVOKE transaction, in order, each simulated on the state the
 * previous ones left. Errors: 24 unknown block, 20 undeployed sender, 40 with data.revert_error.
 * `simulation_flags` (optional) may hold SKIP_VALIDATE to skip the signature check.
 * @example {"jsonrpc":"2.0","id":1,"method":"rollup_estimateFee","params":{"request":[{"type":"INVOKE","version":"0x1",
 *   "sender_address":"0x64b4...","calldata":["0x1","0x49d3...","0x83af...","0x3","0x1","0x2","0x0"],"signature":["0x..","0x.."],
 *   "nonce":"0x2","max_fee":"0x0"}],"block_id":"latest"}}
 */
/** Most transactions one estimate simulates (each has its signature checked). */
export const MAX_ESTIMATE_TRANSACTIONS = 100;

/** The `request` of an estimate: at most MAX_ESTIMATE_TRANSACTIONS INVOKE transactions (shared with starknet_estimateFee). */
export const estimateRequest: Decoder<InvokeTransaction[]> = (value) => {
  if (Array.isArray(value) && value.length > MAX_ESTIMATE_TRANSACTIONS)
    throw new InvalidArgument(`at most ${MAX_ESTIMATE_TRANSACTIONS} transactions per estimate, got ${value.length}`);
  return arrayOf(invokeTransaction, 'an array of transactions')(value);
};

export const rollup_estimateFee = defineMethod({
  name: 'rollup_estimateFee',
  facts: { heavy: true, reveals: revealsAny },
  named: true,
  params: [required('request', estimateRequest), required('block_id', blockId), optional('simulation_flags', simulationFlags)],
  handler: (ctx: RollupContext, request, id, flags) => ctx.chain.estimateFee(request, id, { validate: !(flags?.skipValidate ?? false) }).map(formatEstimate),
});
