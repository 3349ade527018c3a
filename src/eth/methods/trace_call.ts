import { ExecutionFailed, InvalidArgument, ResourceNotFound } from '../../errors.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { arrayOf, blockNumberOrHash, string } from '../../rpc/params.js';
import { bytesHex } from '../../hex.js';
import type { EthContext } from '../context.js';
import { callTreeOfCall, intrinsicGasOfCall } from '../engine/query/otsTraces.js';
import { parityTraces } from '../format/parityTrace.js';
import { callObject, findBlock, isPending } from '../params.js';
import { callObjectReveals } from './reveals.js';

const TRACE_TYPES = ['trace', 'vmTrace', 'stateDiff'];

/** The trace types asked for: only `trace` is served; `vmTrace` and `stateDiff` are refused by name. */
const traceTypes = (value: unknown): string[] => {
  const types = arrayOf(string, 'an array of trace types')(value);
  for (const t of types) {
    if (!TRACE_TYPES.includes(t)) throw new InvalidArgument(`unknown trace type ${JSON.stringify(t)}, want trace, vmTrace or stateDiff`);
    if (t !== 'trace')
      throw new InvalidArgument(
        `trace type ${JSON.stringify(t)} is not supported by devgate: ask for ["trace"] (debug_traceCall's prestateTracer gives state diffs)`,
      );
  }
  return types;
};

/**
 * trace_call (parity, as Erigon and reth answer it): a call run as eth_call runs it (gas capped, no nonce check, no
 * fee check without a price) on a block's post-state (default latest), answered as `{ output, stateDiff, trace,
 * vmTrace }` with the flat traces of trace_transaction (without block or transaction) when `trace` is asked for.
 * `vmTrace` and `stateDiff` are refused (-32602) rather than answered empty; anvil has no trace_call.
 * @example {"jsonrpc":"2.0","id":1,"method":"trace_call","params":[{"to":"0x5fbdb2315678afecb367f032d93f642f64180aa3","data":"0x18160ddd"},["trace"],"latest"]}
 */
export const trace_call = defineMethod({
  name: 'trace_call',
  facts: { heavy: true, reveals: (params) => callObjectReveals(Array.isArray(params) ? params[0] : undefined) },
  params: [required('transaction', callObject), required('traceTypes', traceTypes), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, call, types, sel) => {
    if (sel !== undefined && isPending(sel)) throw new ExecutionFailed('tracing on top of pending is not supported');
    const block = sel === undefined ? ctx.chain.head() : await findBlock(ctx.node, sel);
    if (block === undefined) throw new ResourceNotFound('header not found');
    const top = await callTreeOfCall(ctx.chain, block, call);
    return {
      output: bytesHex(top.output ?? new Uint8Array()),
      stateDiff: null,
      trace: types.includes('trace') ? parityTraces(top, intrinsicGasOfCall(call)) : [],
      vmTrace: null,
    };
  },
});
