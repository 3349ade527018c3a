/**
 * Opcode handlers an opted-in EVM runs in place of @ethereumjs's, each proven to do the same
 * (evmFastPath.test.ts) and taken only where the EVM still has the stock handler.
 *
 * - MSTORE: @ethereumjs turns the word into bytes with `setLengthLeft(bigIntToBytes(word), 32)`, a
 *   hex round trip and an array-spread pad (~3 us, about a tenth of an ERC-20 balanceOf). This one
 *   writes the word's four 64-bit limbs into a scratch buffer, which Memory.write copies at once.
 * - MLOAD, CALLDATALOAD, SLOAD, KECCAK256: 32 bytes to a word by 32-bit pieces (wordOf), not
 *   @ethereumjs's hex round trip; SLOAD's key made as MSTORE's.
 * - STOP, RETURN: end the frame by throwing one shared STOP error, which every interpreter loop
 *   catches and drops, instead of a new EVMError (with its stack trace) per frame.
 */
import { EVMError } from '@ethereumjs/evm';
import { bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';
import { internals } from './modules.js';
import type { OpEntry, RunState } from './types.js';

const TWO_POW_256 = 1n << 256n;
const MAX_UINT64 = (1n << 64n) - 1n;
const scratch = new Uint8Array(32);
const scratchView = new DataView(scratch.buffer);

/**
 * `setLengthLeft(bigIntToBytes(word), 32)` for a stack word, in a buffer that the next call
 * overwrites: copy it before the next call. Outside [0, 2^256) it is @ethereumjs's own (which throws).
 */
export function wordBytes(word: bigint): Uint8Array {
  if (word >= 0n && word <= MAX_UINT64) {
    scratchView.setBigUint64(0, 0n);
    scratchView.setBigUint64(8, 0n);
    scratchView.setBigUint64(16, 0n);
    scratchView.setBigUint64(24, word);
    return scratch;
  }
  if (word < 0n || word >= TWO_POW_256) return setLengthLeft(bigIntToBytes(word), 32);
  scratchView.setBigUint64(0, word >> 192n);
  scratchView.setBigUint64(8, BigInt.asUintN(64, word >> 128n));
  scratchView.setBigUint64(16, BigInt.asUintN(64, word >> 64n));
  scratchView.setBigUint64(24, BigInt.asUintN(64, word));
  return scratch;
}

interface MemoryLike {
  write(offset: number, size: number, value: Uint8Array): void;
}

/** MSTORE as @ethereumjs's, the word's bytes made by wordBytes. */
function mstore(runState: RunState): void {
  const [offset, word] = (runState as unknown as { stack: { popN(n: number): bigint[] } }).stack.popN(2) as [bigint, bigint];
  const bytes = wordBytes(word);
  (runState as unknown as { memory: MemoryLike }).memory.write(Number(offset), 32, bytes);
}

/** `bytesToBigInt(bytes)` of @ethereumjs, by 32-bit pieces for 32 bytes (the hex round trip otherwise). */
export function wordOf(bytes: Uint8Array): bigint {
  if (bytes.length !== 32) return bytesToBigInt(bytes);
  let word = 0n;
  for (let i = 0; i < 32; i += 8) {
    const hi = ((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!) >>> 0;
    const lo = ((bytes[i + 4]! << 24) | (bytes[i + 5]! << 16) | (bytes[i + 6]! << 8) | bytes[i + 7]!) >>> 0;
    if (word !== 0n || hi !== 0 || lo !== 0) word = (word << 64n) | (BigInt(hi) << 32n) | BigInt(lo);
  }
  return word;
}

interface Stack {
  pop(): bigint;
  popN(n: number): bigint[];
  push(value: bigint): void;
}
interface HandlerState {
  stack: Stack;
  memory: MemoryLike & { read(offset: number, size: number, avoidCopy?: boolean): Uint8Array };
  interpreter: {
    getCallData(): Uint8Array;
    getCallDataSize(): bigint;
    storageLoad(key: Uint8Array): Promise<Uint8Array>;
    _result: { returnValue?: Uint8Array };
  };
}
type Handler = (runState: HandlerState, common: { customCrypto: { keccak256?: (msg: Uint8Array) => Uint8Array } }) => unknown;

/** The STOP every replaced STOP and RETURN throws: loops drop a STOP error, so no one keeps it. */
const STOP_SIGNAL = new EVMError(EVMError.errorMessages.STOP);

const stop: Handler = () => {
  throw STOP_SIGNAL;
};

/** RETURN's work before Interpreter.finish's throw: the return data set on the frame's result. */
const setReturn = (runState: HandlerState): void => {
  const [offset, length] = runState.stack.popN(2) as [bigint, bigint];
  runState.interpreter._result.returnValue = length !== 0n ? runState.memory.read(Number(offset), Number(length)) : new Uint8Array(0);
};

/** RETURN as @ethereumjs's (Interpreter.finish), throwing the shared STOP. */
const ret: Handler = (runState) => {
  setReturn(runState);
  throw STOP_SIGNAL;
};

/**
 * The fast loop's STOP and RETURN (loop.ts): what the replaced handler does before its throw, with no throw (the
 * loop ends the frame as its catch does for a STOP). A throw per frame unwound through the loop's try/catch was ~3%
 * of an eth_call of balanceOf. Undefined for any other handler (the stock ones, which the loop calls as they are).
 */
export function quietEnd(handler: unknown): ((runState: RunState) => void) | undefined {
  if (handler === ret) return setReturn as unknown as (runState: RunState) => void;
  if (handler === stop) return NO_WORK;
  return undefined;
}

const NO_WORK = (): void => {};

const mload: Handler = (runState) => {
  const pos = runState.stack.pop();
  runState.stack.push(wordOf(runState.memory.read(Number(pos), 32, true)));
};

const calldataload: Handler = (runState) => {
  const pos = runState.stack.pop();
  if (pos > runState.interpreter.getCallDataSize()) {
    runState.stack.push(0n);
    return;
  }
  const i = Number(pos);
  const loaded = runState.interpreter.getCallData().subarray(i, i + 32);
  if (loaded.length === 32) runState.stack.push(wordOf(loaded));
  else if (loaded.length === 0) runState.stack.push(0n);
  else runState.stack.push(bytesToBigInt(loaded) << (8n * BigInt(32 - loaded.length)));
};

const sload: Handler = async (runState) => {
  const key = runState.stack.pop();
  const value = await runState.interpreter.storageLoad(wordBytes(key).slice());
  runState.stack.push(value.length ? wordOf(value) : 0n);
};

/** KECCAK256 where the EVM's Common has a custom keccak (the stock handler otherwise). */
const stockKeccak = internals?.handlers.get(0x20) as Handler | undefined;
const keccak: Handler = (runState, common) => {
  const hash = common.customCrypto.keccak256;
  if (hash === undefined) return stockKeccak!(runState, common);
  const [offset, length] = runState.stack.popN(2) as [bigint, bigint];
  const data = length !== 0n ? runState.memory.read(Number(offset), Number(length)) : new Uint8Array(0);
  runState.stack.push(wordOf(hash(data)));
};

const REPLACEMENTS: [number, Handler][] = [
  [0x00, stop],
  [0x20, keccak],
  [0x35, calldataload],
  [0x51, mload],
  [0x52, mstore as unknown as Handler],
  [0x54, sload],
  [0xf3, ret],
];

/** Puts the replacements into `opcodeMap` (an EVM's own table) where it has the stock handler. */
export function replaceHandlers(opcodeMap: OpEntry[]): void {
  if (internals === undefined) return;
  for (const [op, handler] of REPLACEMENTS) {
    const entry = opcodeMap[op];
    if (entry !== undefined && entry.opHandler === internals.handlers.get(op)) entry.opHandler = handler as unknown as OpEntry['opHandler'];
  }
}
