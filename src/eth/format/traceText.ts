/**
 * The struct logger's answer as JSON text, written directly (no wire objects, no JSON.stringify): the very text
 * JSON.stringify gives of trace.ts's formatTrace (test/eth/format/traceText.test.ts holds them equal). A trace of
 * a token transfer has hundreds of entries whose stacks barely change from one to the next: the stack's words that
 * equal the entry before's, from the bottom, reuse their text (kept per prefix), and so does memory equal to the memory
 * before.
 */
import { bytesHex } from '../../hex.js';
import type { StructLogEntry, StructResult, TraceResult, TxTrace } from '../engine/trace/types.js';
import { RawJson } from '../../rpc/rawJson.js';
import { formatTrace } from './trace.js';

/** Each opcode name's JSON text (names are plain, but quoted as JSON.stringify quotes them, once each). */
const opTexts = new Map<string, string>();
const opText = (op: string): string => {
  let text = opTexts.get(op);
  if (text === undefined) opTexts.set(op, (text = JSON.stringify(op)));
  return text;
};

const word32 = (n: bigint) => `"0x${n.toString(16).padStart(64, '0')}"`;

/** Texts of the entry before, to reuse. */
interface Previous {
  stack: readonly bigint[];
  /** `prefixes[i]`: the text of stack words 0..i, comma-separated. */
  prefixes: string[];
  memory: Uint8Array | undefined;
  memoryText: string;
}

function stackText(stack: readonly bigint[], prev: Previous): string {
  const before = prev.stack;
  const prefixes = prev.prefixes;
  let same = 0;
  const common = Math.min(stack.length, before.length);
  while (same < common && stack[same] === before[same]) same++;
  for (let i = same; i < stack.length; i++) {
    const word = `"0x${stack[i]!.toString(16)}"`;
    prefixes[i] = i === 0 ? word : `${prefixes[i - 1]},${word}`;
  }
  prev.stack = stack;
  return stack.length === 0 ? '[]' : `[${prefixes[stack.length - 1]}]`;
}

function memoryText(memory: Uint8Array, prev: Previous): string {
  const before = prev.memory;
  if (before !== undefined && before.length === memory.length && Buffer.from(before.buffer, before.byteOffset, before.length).equals(memory))
    return prev.memoryText;
  let hex = Buffer.from(memory.buffer, memory.byteOffset, memory.length).toString('hex');
  const rest = hex.length % 64;
  if (rest !== 0) hex += '0'.repeat(64 - rest);
  const words: string[] = [];
  for (let i = 0; i < hex.length; i += 64) words.push(`"0x${hex.slice(i, i + 64)}"`);
  prev.memory = memory;
  prev.memoryText = `[${words.join(',')}]`;
  return prev.memoryText;
}

/** One entry, in geth's field order (as trace.ts's structLog). */
function entryText(e: StructLogEntry, prev: Previous): string {
  let out = `{"pc":${e.pc},"op":${opText(e.op)},"gas":${Number(e.gas)},"gasCost":${Number(e.gasCost)},"depth":${e.depth}`;
  if (e.error !== undefined) out += `,"error":${JSON.stringify(e.error)}`;
  if (e.stack !== undefined) out += `,"stack":${stackText(e.stack, prev)}`;
  if (e.returnData !== undefined && e.returnData.length > 0) out += `,"returnData":"${bytesHex(e.returnData)}"`;
  if (e.memory !== undefined && e.memory.length > 0) out += `,"memory":${memoryText(e.memory, prev)}`;
  if (e.storage !== undefined && e.storage.size > 0) {
    const slots = [...e.storage].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${word32(k)}:${word32(v)}`);
    out += `,"storage":{${slots.join(',')}}`;
  }
  if (e.refund !== 0n) out += `,"refund":${Number(e.refund)}`;
  return `${out}}`;
}

/** A tracer's result as geth answers it, as JSON text (the struct logger's written directly). */
export function traceText(r: TraceResult): RawJson {
  return r.kind === 'structLogger' ? structResultText(r) : new RawJson(JSON.stringify(formatTrace(r)));
}

/** A block's traces, `{ txHash, result }` per transaction, as JSON text. */
export function blockTracesText(traces: readonly TxTrace[]): RawJson {
  return new RawJson(`[${traces.map((t) => `{"txHash":"${bytesHex(t.txHash)}","result":${traceText(t.result).text}}`).join(',')}]`);
}

/** The struct logger's result as geth answers it, as JSON text; the logs cut as geth's `limit` cuts them. */
export function structResultText(r: StructResult): RawJson {
  const prev: Previous = { stack: [], prefixes: [], memory: undefined, memoryText: '' };
  const entries: string[] = [];
  let size = 0;
  for (const e of r.logs) {
    if (r.limit !== 0 && size > r.limit) break;
    const text = entryText(e, prev);
    size += text.length;
    entries.push(text);
  }
  return new RawJson(`{"gas":${Number(r.gas)},"failed":${r.failed},"returnValue":"${bytesHex(r.returnValue)}","structLogs":[${entries.join(',')}]}`);
}
