/**
 * Opcode handlers an opted-in EVM runs in place of @ethereumjs's, each proven to do the same
 * (evmFastPath.test.ts) and taken only where the EVM still has the stock handler.
 *
 * - MSTORE: @ethereumjs turns the word into bytes with `setLengthLeft(bigIntToBytes(word), 32)`, a
 *   hex round trip and an array-spread pad (~3 us, about a tenth of an ERC-20 balanceOf). This one
 *   writes the word's four 64-bit limbs into a scratch buffer, which Memory.write copies at once.
 */
import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
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

const REPLACEMENTS: [number, OpEntry['opHandler']][] = [[0x52, mstore as OpEntry['opHandler']]];

/** Puts the replacements into `opcodeMap` (an EVM's own table) where it has the stock handler. */
export function replaceHandlers(opcodeMap: OpEntry[]): void {
  if (internals === undefined) return;
  for (const [op, handler] of REPLACEMENTS) {
    const entry = opcodeMap[op];
    if (entry !== undefined && entry.opHandler === internals.handlers.get(op)) entry.opHandler = handler;
  }
}
