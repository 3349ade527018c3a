/**
 * Errors of traced frames in geth's words (core/vm/errors.go): from @ethereumjs's error texts, with the frame's last
 * opcode for an invalid opcode and a stack underflow, and for frames that never started (evm/frameHooks.ts).
 */
import type { Unstarted } from '../evm/frameHooks.js';

/** @ethereumjs's error texts, as geth words them. */
const GETH_ERRORS: Record<string, string> = {
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  'stack overflow': 'stack overflow',
  'invalid JUMP': 'invalid jump destination',
  'value out of range': 'return data out of bounds',
  revert: 'execution reverted',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
};

/** Stack items each opcode takes (geth's minStack), for its stack underflow text. */
function stackInputs(op: number): number | undefined {
  if (op >= 0x80 && op <= 0x8f) return op - 0x7f;
  if (op >= 0x90 && op <= 0x9f) return op - 0x8e;
  if (op >= 0xa0 && op <= 0xa4) return op - 0x9e;
  return INPUTS[op];
}
const INPUTS: Record<number, number> = {
  1: 2,
  2: 2,
  3: 2,
  4: 2,
  5: 2,
  6: 2,
  7: 2,
  8: 3,
  9: 3,
  10: 2,
  11: 2,
  16: 2,
  17: 2,
  18: 2,
  19: 2,
  20: 2,
  21: 1,
  22: 2,
  23: 2,
  24: 2,
  25: 1,
  26: 2,
  27: 2,
  28: 2,
  29: 2,
  30: 1,
  32: 2,
  49: 1,
  53: 1,
  55: 3,
  57: 3,
  59: 1,
  60: 4,
  62: 3,
  63: 1,
  64: 1,
  73: 1,
  80: 1,
  81: 1,
  82: 2,
  83: 2,
  84: 1,
  85: 2,
  86: 1,
  87: 2,
  92: 1,
  93: 2,
  94: 3,
  240: 3,
  241: 7,
  242: 7,
  243: 2,
  244: 6,
  245: 4,
  250: 6,
  253: 2,
  255: 1,
};

/** geth's text of an EVM error; the frame's last opcode names an invalid opcode and counts a stack underflow. */
export function gethError(evmError: string, lastOp?: number, stackLength?: number): string {
  if (evmError === 'invalid opcode')
    return `invalid opcode: ${lastOp === undefined || lastOp === 0xfe ? 'INVALID' : `opcode 0x${lastOp.toString(16)} not defined`}`;
  if (evmError === 'stack underflow' && lastOp !== undefined && stackLength !== undefined) {
    const wants = stackInputs(lastOp);
    if (wants !== undefined && stackLength < wants) return `stack underflow (${stackLength} <=> ${wants})`;
  }
  // The stock interpreter adds where: "invalid JUMP at <code hash>/<address>:<pc>".
  if (evmError.startsWith('invalid JUMP')) return 'invalid jump destination';
  return GETH_ERRORS[evmError] ?? evmError;
}

/** geth's error of a frame that never started. */
export const UNSTARTED: Record<Unstarted, string> = {
  depth: 'max call depth exceeded',
  balance: 'insufficient balance for transfer',
  nonce: 'nonce uint64 overflow',
  collision: 'contract address collision',
};
