/**
 * Parity's flat traces (trace_transaction, trace_block, trace_call; the shape Erigon, reth and anvil answer) made from
 * callTracer's call tree: each frame in pre-order, with its `traceAddress` (its path of subcall indices from the top
 * call), its `subtraces`, its `action` and `result`, and `type` call / create / suicide. As parity counts, the top
 * frame's `gas` and `gasUsed` leave out the transaction's intrinsic gas (the caller gives it). No reward traces: the
 * dev chains have no block rewards after the merge (anvil omits them too).
 */
import { bytesHex, quantityHex } from '../../hex.js';
import type { CallFrame } from '../engine/trace/types.js';

/** Where a transaction's traces sit (absent for trace_call, which names no block). */
export interface ParityPlacement {
  readonly blockHash: Uint8Array;
  readonly blockNumber: bigint;
  readonly txHash: Uint8Array;
  readonly txIndex: number;
}

/** geth's error texts in parity's words (what reth and anvil answer). */
const PARITY_ERRORS: Record<string, string> = {
  'execution reverted': 'Reverted',
  'out of gas': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'write protection': 'Mutable Call In Static Context',
  'max call depth exceeded': 'Out of stack',
  'contract address collision': 'Contract address collision',
  'insufficient balance for transfer': 'Insufficient balance',
  'contract creation code storage out of gas': 'Out of gas',
};

function parityError(error: string): string {
  if (error.startsWith('invalid opcode')) return 'Bad instruction';
  if (error.startsWith('stack underflow')) return 'Stack underflow';
  if (error.startsWith('stack limit reached') || error === 'stack overflow') return 'Out of stack';
  return PARITY_ERRORS[error] ?? error;
}

const isCreate = (f: CallFrame) => f.type === 'CREATE' || f.type === 'CREATE2';
const ZERO = '0x0000000000000000000000000000000000000000';

/** One flat trace's own fields (action, error, result, type); `intrinsic` is the gas the top frame leaves out. */
function entry(f: CallFrame, intrinsic: bigint): { action: Record<string, unknown>; error?: string; result: Record<string, unknown> | null; type: string } {
  const gas = f.gas > intrinsic ? f.gas - intrinsic : 0n;
  const gasUsed = f.gasUsed > intrinsic ? f.gasUsed - intrinsic : 0n;
  const error = f.error === undefined ? undefined : parityError(f.error);
  const value = quantityHex(f.value ?? 0n);
  if (f.type === 'SELFDESTRUCT')
    return { action: { address: f.from.toString(), balance: value, refundAddress: f.to?.toString() ?? ZERO }, result: null, type: 'suicide' };
  if (isCreate(f)) {
    const action = { from: f.from.toString(), gas: quantityHex(gas), init: bytesHex(f.input), value, creationMethod: f.type.toLowerCase() };
    if (error !== undefined) return { action, error, result: null, type: 'create' };
    return {
      action,
      result: { address: f.to?.toString() ?? ZERO, code: bytesHex(f.output ?? new Uint8Array()), gasUsed: quantityHex(gasUsed) },
      type: 'create',
    };
  }
  const action = {
    from: f.from.toString(),
    callType: f.type.toLowerCase(),
    gas: quantityHex(gas),
    input: bytesHex(f.input),
    to: f.to?.toString() ?? ZERO,
    value,
  };
  // A revert keeps its output (parity, reth, anvil); any other failure has no result.
  const result = error === undefined || error === 'Reverted' ? { gasUsed: quantityHex(gasUsed), output: bytesHex(f.output ?? new Uint8Array()) } : null;
  return error === undefined ? { action, result, type: 'call' } : { action, error, result, type: 'call' };
}

/** The flat traces of one transaction's call tree, in pre-order; `at` adds where it sits (trace_transaction, trace_block). */
export function parityTraces(top: CallFrame, intrinsic: bigint, at?: ParityPlacement): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (f: CallFrame, path: number[], depth: number) => {
    const { action, error, result, type } = entry(f, depth === 0 ? intrinsic : 0n);
    const t: Record<string, unknown> = { action };
    if (at !== undefined) Object.assign(t, { blockHash: bytesHex(at.blockHash), blockNumber: Number(at.blockNumber) });
    if (error !== undefined) t.error = error;
    t.result = result;
    t.subtraces = f.calls.length;
    t.traceAddress = path;
    if (at !== undefined) Object.assign(t, { transactionHash: bytesHex(at.txHash), transactionPosition: at.txIndex });
    t.type = type;
    out.push(t);
    for (let i = 0; i < f.calls.length; i++) walk(f.calls[i]!, [...path, i], depth + 1);
  };
  walk(top, [], 0);
  return out;
}
