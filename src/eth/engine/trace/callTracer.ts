/**
 * geth's callTracer (eth/tracers/native/call.go): the tree of call frames, each with its type, from, to, gas, gas
 * used, input, output, error and decoded revert reason; `onlyTopCall` keeps the transaction's own frame only;
 * `withLog` adds each frame's logs with their position among its subcalls (logs of failed frames are dropped).
 *
 * The top frame's gas is the transaction's gas limit and its gasUsed the receipt's, as geth reports them. Logs are
 * read from LOG opcodes, so `withLog` traces with steps. SELFDESTRUCT frames and those of calls that fail before they
 * start come from hooks.ts like any other frame (geth's OnEnter/OnExit).
 */
import { decodeGethRevert } from './revert.js';
import type { Frame, FrameEnd, Step, Tracer } from './hooks.js';
import type { CallFrame, CallResult, CallTracerOptions } from './types.js';

const LOG0 = 0xa0;
const LOG4 = 0xa4;

export class CallTracer implements Tracer {
  readonly wantsSteps: boolean;
  private readonly stack: CallFrame[] = [];
  /** Live logs of each open frame and its finished subframes, to give back indices when a frame fails. */
  private readonly liveLogs: number[] = [];
  private nextLogIndex: number;

  constructor(
    private readonly opts: CallTracerOptions,
    private readonly gasLimit: bigint,
    /** Logs of the block before this transaction (geth's log indices are block-wide). */
    firstLogIndex: number,
  ) {
    this.wantsSteps = opts.withLog;
    this.nextLogIndex = firstLogIndex;
  }

  enter(f: Frame): void {
    if (this.opts.onlyTopCall && f.depth > 0) return;
    this.stack.push({
      type: f.type,
      from: f.from,
      to: f.to,
      gas: f.depth === 0 ? this.gasLimit : f.gas,
      gasUsed: 0n,
      input: f.input,
      calls: [],
      logs: [],
      value: f.type === 'STATICCALL' ? undefined : f.value,
      reverted: false,
    });
    this.liveLogs.push(0);
  }

  exit(f: Frame, end: FrameEnd): void {
    if (this.opts.onlyTopCall && f.depth > 0) return;
    const frame = this.stack[this.stack.length - 1]!;
    const live = this.liveLogs.pop()!;
    if (end.error !== undefined) this.nextLogIndex -= live;
    else if (this.liveLogs.length > 0) this.liveLogs[this.liveLogs.length - 1]! += live;
    frame.to ??= f.to;
    frame.gasUsed = end.gasUsed;
    processOutput(frame, end);
    if (f.depth === 0) return;
    this.stack.pop();
    this.stack[this.stack.length - 1]!.calls.push(frame);
  }

  step(s: Step): void {
    if (s.opcode < LOG0 || s.opcode > LOG4 || s.frame.isStatic) return;
    if (this.opts.onlyTopCall && s.depth > 1) return;
    const n = s.stack.length;
    const topics = s.opcode - LOG0;
    if (n < 2 + topics) return;
    const offset = s.stack[n - 1]!;
    const size = s.stack[n - 2]!;
    const data = new Uint8Array(Number(size));
    if (size > 0n && offset < BigInt(s.memory.length)) data.set(s.memory.subarray(Number(offset), Number(offset + size)));
    const frame = this.stack[this.stack.length - 1]!;
    frame.logs.push({
      address: s.address,
      topics: Array.from({ length: topics }, (_, i) => topicBytes(s.stack[n - 3 - i]!)),
      data,
      index: this.nextLogIndex++,
      position: frame.calls.length,
    });
    this.liveLogs[this.liveLogs.length - 1]!++;
  }

  /** The result, given the gas the transaction used (the receipt's). */
  result(gasUsed: bigint): CallResult {
    const top = this.stack[0]!;
    top.gasUsed = gasUsed;
    if (this.opts.withLog) clearFailedLogs(top, false);
    return { kind: 'callTracer', top };
  }
}

/** A stack word as 32 bytes. */
function topicBytes(word: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let w = word;
  for (let i = 31; i >= 0 && w > 0n; i--) {
    out[i] = Number(w & 0xffn);
    w >>= 8n;
  }
  return out;
}

/** geth's callFrame.processOutput. */
function processOutput(frame: CallFrame, end: FrameEnd): void {
  // An error that reverted nothing is none (geth: a pre-Homestead code deposit out of gas).
  if (end.error === undefined || !end.reverted) {
    frame.output = end.output;
    return;
  }
  frame.error = end.error;
  frame.reverted = end.reverted;
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = undefined;
  if (end.evmError !== 'revert' || end.output.length === 0) return;
  frame.output = end.output;
  const reason = decodeGethRevert(end.output);
  if (reason !== undefined) frame.revertReason = reason;
}

function clearFailedLogs(frame: CallFrame, parentFailed: boolean): void {
  const failed = (frame.error !== undefined && frame.reverted) || parentFailed;
  if (failed) frame.logs = [];
  for (const call of frame.calls) clearFailedLogs(call, failed);
}
