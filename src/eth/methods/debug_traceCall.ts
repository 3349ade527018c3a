import { ExecutionFailed, ResourceNotFound } from '../../errors.js';
import { checkCallBlockOverride } from '../engine/exec/overrides.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { traceCall } from '../engine/trace/run.js';
import { formatTrace } from '../format/trace.js';
import { callObject, findBlock, isPending } from '../params.js';
import { DEFAULT_TRACE, traceCallConfig } from './debug_traceConfig.js';
import { traceCallReveals } from './reveals.js';
import { bytesHex } from '../../hex.js';

/**
 * debug_traceCall: a call traced as eth_call runs it (gas capped at 10x the block gas limit, no nonce check, no fee
 * check without a price), on the state after the given block, or with `txIndex` on the state before that transaction
 * of the block; the config as debug_traceTransaction's, with `stateOverrides` and `blockOverrides` as eth_call's (number,
 * time, gasLimit, feeRecipient, prevRandao, baseFeePerGas, blobBaseFee, difficulty: the traced call reads them);
 * `pending` answers geth's "tracing on top of pending is not supported".
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_traceCall","params":[{"to":"0x5fbdb2315678afecb367f032d93f642f64180aa3","data":"0x18160ddd"},"latest",{"tracer":"callTracer"}]}
 */
export const debug_traceCall = defineMethod({
  name: 'debug_traceCall',
  facts: { heavy: true, reveals: traceCallReveals },
  params: [required('transaction', callObject), required('block', blockNumberOrHash), optional('config', traceCallConfig)],
  handler: async (ctx: EthContext, call, sel, config) => {
    if (isPending(sel)) throw new ExecutionFailed('tracing on top of pending is not supported');
    const block = await findBlock(ctx.node, sel);
    if (block === undefined)
      throw new ResourceNotFound('hash' in sel ? `block ${bytesHex(sel.hash)} not found` : `block #${'number' in sel ? sel.number : sel.tag} not found`);
    checkCallBlockOverride(config?.blockOverrides);
    const req = config ?? DEFAULT_TRACE;
    return formatTrace(await traceCall(ctx.chain, block, call, req, config?.txIndex, config?.stateOverrides, config?.blockOverrides));
  },
});
