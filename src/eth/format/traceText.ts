/**
 * The struct logger's answer as JSON text, written directly (no wire objects, no JSON.stringify): the very text
 * JSON.stringify gives of trace.ts's formatTrace (test/eth/format/traceText.test.ts holds them equal). The text is
 * written as bytes into one growing Buffer (jsonBytes.ts) and read out once as a flat string: no string piece per
 * number or word to concatenate and flatten. A trace of a token transfer has hundreds of entries whose stacks barely
 * change from one to the next: the stack's words that equal the entry before's, from the bottom, are copied from the
 * bytes that entry wrote, and so is memory equal to the memory before.
 */
import { bytesHex } from '../../hex.js';
import type { StructLogEntry, StructResult, TraceResult, TxTrace } from '../engine/trace/types.js';
import { RawJson } from '../../rpc/rawJson.js';
import { formatTrace } from './trace.js';
import { JsonBytes } from './jsonBytes.js';

/** Each opcode name's JSON text as bytes (names are plain, but quoted as JSON.stringify quotes them, once each). */
const opTexts = new Map<string, Uint8Array>();
const opText = (op: string): Uint8Array => {
  let text = opTexts.get(op);
  if (text === undefined) opTexts.set(op, (text = Buffer.from(JSON.stringify(op), 'utf8')));
  return text;
};

const QUOTE = 0x22;
const COMMA = 0x2c;

/**
 * How many stack words (from the top) each opcode takes: the words below them are still there, unchanged, at the next
 * opcode of the same frame (DUPs and PUSHes take none, SWAPn n + 1). An opcode not named here is compared word by word.
 */
const TAKES = new Map<string, number>();
const takes = (n: number, ops: string) => {
  for (const op of ops.split(' ')) TAKES.set(op, n);
};
takes(0, 'STOP ADDRESS ORIGIN CALLER CALLVALUE CALLDATASIZE CODESIZE GASPRICE RETURNDATASIZE COINBASE TIMESTAMP NUMBER');
takes(0, 'DIFFICULTY PREVRANDAO GASLIMIT CHAINID SELFBALANCE BASEFEE BLOBBASEFEE PC MSIZE GAS JUMPDEST PUSH0');
takes(1, 'ISZERO NOT CLZ BALANCE CALLDATALOAD EXTCODESIZE EXTCODEHASH BLOCKHASH BLOBHASH POP MLOAD SLOAD JUMP TLOAD');
takes(2, 'ADD MUL SUB DIV SDIV MOD SMOD EXP SIGNEXTEND LT GT SLT SGT EQ AND OR XOR BYTE SHL SHR SAR KECCAK256 SHA3');
takes(2, 'MSTORE MSTORE8 SSTORE JUMPI TSTORE RETURN REVERT');
takes(3, 'ADDMOD MULMOD CALLDATACOPY CODECOPY RETURNDATACOPY MCOPY CREATE');
takes(4, 'EXTCODECOPY CREATE2');
takes(6, 'DELEGATECALL STATICCALL');
takes(7, 'CALL CALLCODE');
for (let n = 1; n <= 32; n++) TAKES.set(`PUSH${n}`, 0);
for (let n = 1; n <= 16; n++) {
  TAKES.set(`DUP${n}`, 0);
  TAKES.set(`SWAP${n}`, n + 1);
}
for (let n = 0; n <= 4; n++) TAKES.set(`LOG${n}`, n + 2);

/** Where the entry before wrote its stack and memory, to copy from. */
interface Previous {
  /** The entry before's opcode and depth (its stack's words below what that opcode takes are this entry's too). */
  op: string;
  depth: number;
  stack: readonly bigint[];
  /** Where the stack's text (after its `[`) starts in the output. */
  stackAt: number;
  /** `ends[i]`: the end of word i's text, relative to stackAt. */
  ends: number[];
  memory: Uint8Array | undefined;
  /** Where that memory's text (`[...]`) starts and ends in the output. */
  memoryAt: number;
  memoryEnd: number;
}

function writeStack(out: JsonBytes, stack: readonly bigint[], depth: number, prev: Previous): void {
  const before = prev.stack;
  const ends = prev.ends;
  let same = 0;
  const common = Math.min(stack.length, before.length);
  const took = prev.depth === depth ? TAKES.get(prev.op) : undefined;
  // The next opcode of the same frame: known without comparing (bigint comparisons cost ~10-30 ns a word).
  if (took !== undefined) same = Math.max(0, Math.min(common, before.length - took));
  else while (same < common && stack[same] === before[same]) same++;
  out.byte(0x5b);
  const at = out.pos;
  if (same > 0) out.copy(prev.stackAt, prev.stackAt + ends[same - 1]!);
  for (let i = same; i < stack.length; i++) {
    if (i > 0) out.byte(COMMA);
    out.byte(QUOTE);
    out.quantityHex(stack[i]!);
    out.byte(QUOTE);
    ends[i] = out.pos - at;
  }
  out.byte(0x5d);
  prev.stack = stack;
  prev.stackAt = at;
}

function writeMemory(out: JsonBytes, memory: Uint8Array, prev: Previous): void {
  const before = prev.memory;
  if (before !== undefined && before.length === memory.length && Buffer.from(before.buffer, before.byteOffset, before.length).equals(memory)) {
    const at = out.pos;
    out.copy(prev.memoryAt, prev.memoryEnd);
    prev.memoryAt = at;
    prev.memoryEnd = out.pos;
    return;
  }
  const at = out.pos;
  out.byte(0x5b);
  for (let i = 0; i < memory.length; i += 32) {
    if (i > 0) out.byte(COMMA);
    out.byte(QUOTE);
    out.byte(0x30);
    out.byte(0x78);
    const end = Math.min(i + 32, memory.length);
    out.hex(memory, i, end);
    // A last partial word is padded with zeros to 32 bytes.
    for (let j = end; j < i + 32; j++) out.ascii('00');
    out.byte(QUOTE);
  }
  out.byte(0x5d);
  prev.memory = memory;
  prev.memoryAt = at;
  prev.memoryEnd = out.pos;
}

/** A 32-byte word: `"0x` and 64 hex digits`"`. */
function writeWord32(out: JsonBytes, n: bigint): void {
  out.ascii(`"0x${n.toString(16).padStart(64, '0')}"`);
}

/** One entry, in geth's field order (as trace.ts's structLog). */
function writeEntry(out: JsonBytes, e: StructLogEntry, prev: Previous): void {
  out.ascii('{"pc":');
  out.number(e.pc);
  out.ascii(',"op":');
  out.bytes(opText(e.op));
  out.ascii(',"gas":');
  out.number(Number(e.gas));
  out.ascii(',"gasCost":');
  out.number(Number(e.gasCost));
  out.ascii(',"depth":');
  out.number(e.depth);
  if (e.error !== undefined) {
    out.ascii(',"error":');
    out.text(JSON.stringify(e.error));
  }
  if (e.stack !== undefined) {
    out.ascii(',"stack":');
    writeStack(out, e.stack, e.depth, prev);
  }
  if (e.returnData !== undefined && e.returnData.length > 0) {
    out.ascii(',"returnData":"0x');
    out.hex(e.returnData, 0, e.returnData.length);
    out.byte(QUOTE);
  }
  if (e.memory !== undefined && e.memory.length > 0) {
    out.ascii(',"memory":');
    writeMemory(out, e.memory, prev);
  }
  if (e.storage !== undefined && e.storage.size > 0) {
    out.ascii(',"storage":{');
    const slots = [...e.storage].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    for (let i = 0; i < slots.length; i++) {
      if (i > 0) out.byte(COMMA);
      writeWord32(out, slots[i]![0]);
      out.byte(0x3a);
      writeWord32(out, slots[i]![1]);
    }
    out.byte(0x7d);
  }
  if (e.refund !== 0n) {
    out.ascii(',"refund":');
    out.number(Number(e.refund));
  }
  out.byte(0x7d);
  prev.op = e.op;
  prev.depth = e.depth;
}

/** The struct logger's result, the logs cut as geth's `limit` cuts them. */
function writeStructResult(out: JsonBytes, r: StructResult): void {
  out.ascii('{"gas":');
  out.number(Number(r.gas));
  out.ascii(r.failed ? ',"failed":true,"returnValue":"0x' : ',"failed":false,"returnValue":"0x');
  out.hex(r.returnValue, 0, r.returnValue.length);
  out.ascii('","structLogs":[');
  const prev: Previous = { op: '', depth: 0, stack: [], stackAt: 0, ends: [], memory: undefined, memoryAt: 0, memoryEnd: 0 };
  // geth's limit counts the entries' JSON (as JSON.stringify's length: UTF-16 units), separators not included.
  let size = 0;
  for (let i = 0; i < r.logs.length; i++) {
    if (r.limit !== 0 && size > r.limit) break;
    if (i > 0) out.byte(COMMA);
    const at = out.pos;
    const wide = out.wideBytes;
    writeEntry(out, r.logs[i]!, prev);
    size += out.pos - at - (out.wideBytes - wide);
  }
  out.ascii(']}');
}

/** Writes a tracer's result (the struct logger's directly, the others' as JSON.stringify of their wire objects). */
function writeTrace(out: JsonBytes, r: TraceResult): void {
  if (r.kind === 'structLogger') writeStructResult(out, r);
  else out.text(JSON.stringify(formatTrace(r)));
}

/** A tracer's result as geth answers it, as JSON text (the struct logger's written directly). */
export function traceText(r: TraceResult): RawJson {
  if (r.kind !== 'structLogger') return new RawJson(JSON.stringify(formatTrace(r)));
  return structResultText(r);
}

/** A block's traces, `{ txHash, result }` per transaction, as JSON text. */
export function blockTracesText(traces: readonly TxTrace[]): RawJson {
  const out = JsonBytes.take();
  out.byte(0x5b);
  for (let i = 0; i < traces.length; i++) {
    if (i > 0) out.byte(COMMA);
    out.ascii(`{"txHash":"${bytesHex(traces[i]!.txHash)}","result":`);
    writeTrace(out, traces[i]!.result);
    out.byte(0x7d);
  }
  out.byte(0x5d);
  return new RawJson(out.done());
}

/** The struct logger's result as geth answers it, as JSON text; the logs cut as geth's `limit` cuts them. */
export function structResultText(r: StructResult): RawJson {
  const out = JsonBytes.take();
  writeStructResult(out, r);
  return new RawJson(out.done());
}
