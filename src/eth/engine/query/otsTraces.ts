/**
 * Call trees of mined transactions and calls for the parity (trace_*) and Otterscan (ots_*) methods: each is
 * callTracer's tree (src/eth/engine/trace), run again as debug_traceTransaction runs it; nothing here runs code by
 * hand. Also the intrinsic gas parity's top frame leaves out.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';
import type { CallRequest } from '../exec/call.js';
import { TRACE_TIMEOUT_MS, traceBlock, traceCall, traceTransaction, type TraceRequest } from '../trace/run.js';
import type { CallFrame } from '../trace/types.js';

/** callTracer with every frame, no logs, geth's default timeout per transaction. */
export const CALL_TREE: TraceRequest = { spec: { kind: 'callTracer', opts: { onlyTopCall: false, withLog: false } }, timeoutMs: TRACE_TIMEOUT_MS };

const txAt = (block: MinedBlock, i: number): TypedTransaction => block.transactionAt?.(i) ?? block.block.transactions[i]!;

/** The call tree of the transaction at `index` of `block`. */
export async function callTreeOf(chain: EthChain, block: MinedBlock, index: number): Promise<CallFrame> {
  const r = await traceTransaction(chain, block, index, CALL_TREE);
  if (r.kind !== 'callTracer') throw new Error('callTracer answered another kind');
  return r.top;
}

/** The call trees of every transaction of `block`, in order (none for genesis). */
export async function callTreesOf(chain: EthChain, block: MinedBlock): Promise<CallFrame[]> {
  if (block.txHashes.length === 0) return [];
  const traces = await traceBlock(chain, block, CALL_TREE);
  return traces.map((t) => {
    if (t.result.kind !== 'callTracer') throw new Error('callTracer answered another kind');
    return t.result.top;
  });
}

/** The call tree of a call run as eth_call runs it on `block`'s post-state. */
export async function callTreeOfCall(chain: EthChain, block: MinedBlock, call: CallRequest): Promise<CallFrame> {
  const r = await traceCall(chain, block, call, CALL_TREE);
  if (r.kind !== 'callTracer') throw new Error('callTracer answered another kind');
  return r.top;
}

/** The intrinsic gas of the transaction at `index` of `block` (by its own rules, @ethereumjs's count). */
export function intrinsicGasOfTx(block: MinedBlock, index: number): bigint {
  return txAt(block, index).getIntrinsicGas();
}

/**
 * The intrinsic gas of a call: 21,000, calldata (4 per zero byte, 16 per other), a creation's 32,000 and 2 per
 * word of init code, 2,400 per access list address and 1,900 per key, 25,000 per authorization.
 */
export function intrinsicGasOfCall(call: CallRequest): bigint {
  let gas = 21_000n;
  const data = call.data ?? new Uint8Array();
  for (const b of data) gas += b === 0 ? 4n : 16n;
  if (call.to === undefined) gas += 32_000n + 2n * BigInt(Math.ceil(data.length / 32));
  for (const [, keys] of call.accessList ?? []) gas += 2_400n + 1_900n * BigInt(keys.length);
  gas += 25_000n * BigInt(call.authorizationList?.length ?? 0);
  return gas;
}
