/**
 * Traces in geth's wire forms (eth/tracers/logger/logger.go, eth/tracers/native/*.go): the struct logger's numbers
 * as JSON numbers, stack words as minimal hex, memory as 0x-prefixed 32-byte words, storage slots and values as
 * 32-byte hex; callTracer's gas as hex quantities and input always present; prestateTracer's nonce as a JSON number
 * and balance always present in `pre`; maps in key order, as Go's encoder writes them. Fields geth leaves out when
 * empty are left out here.
 */
import { bytesHex, quantityHex } from '../../hex.js';
import type { CallFrame, PrestateAccount, StructLogEntry, TraceResult, TxTrace } from '../engine/trace/types.js';

const word32 = (n: bigint) => '0x' + n.toString(16).padStart(64, '0');

/** One struct log entry, in geth's field order. */
function structLog(e: StructLogEntry): Record<string, unknown> {
  const out: Record<string, unknown> = { pc: e.pc, op: e.op, gas: Number(e.gas), gasCost: Number(e.gasCost), depth: e.depth };
  if (e.error !== undefined) out.error = e.error;
  if (e.stack !== undefined) out.stack = e.stack.map((w) => quantityHex(w));
  if (e.returnData !== undefined && e.returnData.length > 0) out.returnData = bytesHex(e.returnData);
  if (e.memory !== undefined && e.memory.length > 0) {
    const words: string[] = [];
    for (let i = 0; i < e.memory.length; i += 32) {
      const word = new Uint8Array(32);
      word.set(e.memory.subarray(i, i + 32));
      words.push(bytesHex(word));
    }
    out.memory = words;
  }
  if (e.storage !== undefined && e.storage.size > 0) {
    const storage: Record<string, string> = {};
    for (const [k, v] of [...e.storage].sort((a, b) => (a[0] < b[0] ? -1 : 1))) storage[word32(k)] = word32(v);
    out.storage = storage;
  }
  if (e.refund !== 0n) out.refund = Number(e.refund);
  return out;
}

/** The struct logs, cut as geth's `limit` cuts them: no more once their JSON passed `limit` bytes. */
function structLogs(logs: readonly StructLogEntry[], limit: number): Record<string, unknown>[] {
  if (limit === 0) return logs.map(structLog);
  const out: Record<string, unknown>[] = [];
  let size = 0;
  for (const e of logs) {
    if (size > limit) break;
    const entry = structLog(e);
    size += JSON.stringify(entry).length;
    out.push(entry);
  }
  return out;
}

function callFrame(f: CallFrame): Record<string, unknown> {
  const out: Record<string, unknown> = { from: f.from.toString(), gas: quantityHex(f.gas), gasUsed: quantityHex(f.gasUsed) };
  if (f.to !== undefined) out.to = f.to.toString();
  out.input = bytesHex(f.input);
  if (f.output !== undefined && f.output.length > 0) out.output = bytesHex(f.output);
  if (f.error !== undefined && f.error !== '') out.error = f.error;
  if (f.revertReason !== undefined && f.revertReason !== '') out.revertReason = f.revertReason;
  if (f.calls.length > 0) out.calls = f.calls.map(callFrame);
  if (f.logs.length > 0) {
    out.logs = f.logs.map((l) => ({
      address: l.address.toString(),
      topics: l.topics.map(bytesHex),
      data: bytesHex(l.data),
      index: quantityHex(l.index),
      position: quantityHex(l.position),
    }));
  }
  if (f.value !== undefined) out.value = quantityHex(f.value);
  out.type = f.type;
  return out;
}

function account(a: PrestateAccount): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (a.balance !== undefined) out.balance = quantityHex(a.balance);
  if (a.code !== undefined) out.code = bytesHex(a.code);
  if (a.codeHash !== undefined) out.codeHash = bytesHex(a.codeHash);
  if (a.nonce !== 0n) out.nonce = Number(a.nonce);
  if (a.storage !== undefined && a.storage.size > 0) {
    const storage: Record<string, string> = {};
    for (const key of [...a.storage.keys()].sort()) storage[key] = bytesHex(a.storage.get(key)!.value);
    out.storage = storage;
  }
  return out;
}

function accounts(map: ReadonlyMap<string, { account: PrestateAccount }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [...map.keys()].sort()) out[key] = account(map.get(key)!.account);
  return out;
}

/** A tracer's result as geth answers it. */
export function formatTrace(r: TraceResult): unknown {
  switch (r.kind) {
    case 'structLogger':
      return { gas: Number(r.gas), failed: r.failed, returnValue: bytesHex(r.returnValue), structLogs: structLogs(r.logs, r.limit) };
    case 'callTracer':
      return callFrame(r.top);
    case 'prestateTracer':
      return r.diffMode ? { post: accounts(r.post), pre: accounts(r.pre) } : accounts(r.pre);
    case '4byteTracer': {
      const entries = r.ids.map((id) => [`${bytesHex(id.selector)}-${id.size}`, id.count] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
      return Object.fromEntries(entries);
    }
    case 'noopTracer':
      return {};
  }
}

/** A block's traces: `{ txHash, result }` per transaction. */
export function formatBlockTraces(traces: readonly TxTrace[]): unknown[] {
  return traces.map((t) => ({ txHash: bytesHex(t.txHash), result: formatTrace(t.result) }));
}
