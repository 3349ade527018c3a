/**
 * The struct logger's text copies the stack words an entry shares with the entry before, as known from that entry's
 * opcode (traceText.ts TAKES): a contract that runs every opcode of that table (bar the ones that end the frame), over a
 * stack of 17 words, traced with debug_traceCall, gives the very text JSON.stringify gives of the wire objects (with
 * a wrong count for an opcode, a word it changed would keep its old text).
 */
import { createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../src/eth/engine/build/chainFromSeed.js';
import { traceCall } from '../../../src/eth/engine/trace/run.js';
import { formatTrace } from '../../../src/eth/format/trace.js';
import { traceText } from '../../../src/eth/format/traceText.js';
import { parseSeed } from '../../../src/seed/load.js';
import { traceSeed } from '../engine/trace/traceSeed.js';

/** Opcode, the words to push before it (the last pushed is its top input), how many words it leaves to pop. */
type Op = [code: number, inputs: readonly number[], outputs: number];
const un = (code: number): Op => [code, [0x21], 1];
const bin = (code: number): Op => [code, [0x07, 0x03], 1];
const none = (code: number): Op => [code, [], 1];

const OPS: Op[] = [
  ...[0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b].map(bin),
  [0x08, [0x05, 0x07, 0x03], 1], // ADDMOD
  [0x09, [0x05, 0x07, 0x03], 1], // MULMOD
  ...[0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d].map(bin),
  un(0x15), // ISZERO
  un(0x19), // NOT
  un(0x1e), // CLZ (Osaka)
  [0x20, [0x20, 0x00], 1], // KECCAK256(offset 0, size 32)
  ...[0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x4a, 0x58, 0x59, 0x5a].map(none),
  [0x5f, [], 1], // PUSH0
  un(0x31), // BALANCE
  un(0x35), // CALLDATALOAD
  un(0x3b), // EXTCODESIZE
  un(0x3f), // EXTCODEHASH
  un(0x40), // BLOCKHASH
  un(0x49), // BLOBHASH
  un(0x51), // MLOAD
  un(0x54), // SLOAD
  un(0x5c), // TLOAD
  [0x37, [0x03, 0x02, 0x01], 0], // CALLDATACOPY(dest 1, offset 2, size 3)
  [0x39, [0x03, 0x02, 0x01], 0], // CODECOPY
  [0x3e, [0x00, 0x00, 0x01], 0], // RETURNDATACOPY(dest 1, offset 0, size 0)
  [0x5e, [0x03, 0x02, 0x01], 0], // MCOPY
  [0x3c, [0x03, 0x02, 0x01, 0x04], 0], // EXTCODECOPY(address 4, ...)
  [0x52, [0x55, 0x40], 0], // MSTORE(offset 0x40, 0x55)
  [0x53, [0x66, 0x41], 0], // MSTORE8
  [0x55, [0x77, 0x01], 0], // SSTORE(slot 1, 0x77)
  [0x5d, [0x88, 0x02], 0], // TSTORE
  [0x57, [0x00, 0x00], 0], // JUMPI not taken
  [0x50, [0x99], 0], // POP
  [0xa0, [0x04, 0x00], 0], // LOG0(offset 0, size 4)
  [0xa1, [0x0a, 0x04, 0x00], 0],
  [0xa2, [0x0b, 0x0a, 0x04, 0x00], 0],
  [0xa3, [0x0c, 0x0b, 0x0a, 0x04, 0x00], 0],
  [0xa4, [0x0d, 0x0c, 0x0b, 0x0a, 0x04, 0x00], 0],
  [0xf1, [0x20, 0x00, 0x20, 0x00, 0x00, 0x04, 0xffff], 1], // CALL the identity precompile
  [0xf2, [0x20, 0x00, 0x20, 0x00, 0x00, 0x04, 0xffff], 1], // CALLCODE
  [0xf4, [0x20, 0x00, 0x20, 0x00, 0x04, 0xffff], 1], // DELEGATECALL
  [0xfa, [0x20, 0x00, 0x20, 0x00, 0x04, 0xffff], 1], // STATICCALL
  [0xf0, [0x00, 0x00, 0x00], 1], // CREATE (empty code)
  [0xf5, [0x05, 0x00, 0x00, 0x00], 1], // CREATE2
];
for (let n = 1; n <= 16; n++) OPS.push([0x7f + n, [], 1]); // DUPn
for (let n = 1; n <= 16; n++) OPS.push([0x8f + n, [], 0]); // SWAPn
OPS.push([0x60, [], 1], [0x61, [], 1], [0x7f, [], 1]); // PUSH1, PUSH2, PUSH32 (immediates below)

/** The contract: 17 words, then each opcode with its inputs pushed and its outputs popped, a JUMP, and RETURN. */
function code(): Uint8Array {
  const out: number[] = [];
  for (let i = 1; i <= 17; i++) out.push(0x60, 0x100 - i);
  for (const [op, inputs, outputs] of OPS) {
    for (const v of inputs) v > 0xff ? out.push(0x61, v >> 8, v & 0xff) : out.push(0x60, v);
    out.push(op);
    if (op === 0x60) out.push(0x42);
    if (op === 0x61) out.push(0x12, 0x34);
    if (op === 0x7f) for (let i = 0; i < 32; i++) out.push(0xf0 + (i & 15));
    for (let i = 0; i < outputs; i++) out.push(0x50);
  }
  // JUMP to the JUMPDEST right after it.
  out.push(0x61, 0, 0, 0x56, 0x5b);
  const dest = out.length - 1;
  out[out.length - 4] = dest >> 8;
  out[out.length - 3] = dest & 0xff;
  out.push(0x60, 0x20, 0x60, 0x00, 0xf3); // RETURN(0, 32)
  return Uint8Array.from(out);
}

describe('struct logger text over every opcode of the stack table', () => {
  it('is JSON.stringify of the wire objects', async () => {
    const chain = await chainFromSeed(parseSeed(traceSeed('osaka'), 'trace seed'));
    const block = chain.blockByNumber(2n)!;
    const to = createAddressFromString('0x00000000000000000000000000000000000c0de5');
    const opts = { disableStack: false, disableStorage: false, enableMemory: true, enableReturnData: true, limit: 0 };
    const result = await traceCall(chain, block, { to, gas: 1_000_000n }, { spec: { kind: 'structLogger', opts }, timeoutMs: 10_000 }, undefined, [
      [to, { code: code() }],
    ]);
    expect(result.kind).toBe('structLogger');
    if (result.kind !== 'structLogger') return;
    expect(result.failed, JSON.stringify(formatTrace({ ...result, logs: result.logs.slice(-3) })).slice(0, 1500)).toBe(false);
    const ops = new Set(result.logs.map((e) => e.op));
    for (const op of ['CLZ', 'ADDMOD', 'MCOPY', 'TSTORE', 'EXTCODECOPY', 'LOG4', 'CALLCODE', 'CREATE2', 'DUP16', 'SWAP16', 'JUMP', 'RETURN'])
      expect(ops.has(op), op).toBe(true);
    expect(result.logs.every((e) => e.error === undefined)).toBe(true);
    expect(traceText(result).text).toBe(JSON.stringify(formatTrace(result)));
    // Without memory and return data (the lean path) too.
    const lean = await traceCall(
      chain,
      block,
      { to, gas: 1_000_000n },
      { spec: { kind: 'structLogger', opts: { ...opts, enableMemory: false, enableReturnData: false } }, timeoutMs: 10_000 },
      undefined,
      [[to, { code: code() }]],
    );
    expect(traceText(lean).text).toBe(JSON.stringify(formatTrace(lean)));
  }, 60_000);
});
