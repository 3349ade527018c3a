/**
 * The struct logger's bounds: a trace stops once its logs pass their byte budget (TraceTooLarge, answered -32005 by the
 * methods, naming the limit) instead of filling the process's memory, counting what the entries hold (stack, memory,
 * every copy of the storage maps), not entries; with a limit it keeps only what the limit can show (each entry's JSON
 * is at least 40 bytes) and lets the run go on.
 */
import { createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { Frame, Step, StepState } from '../../../../src/eth/engine/trace/hooks.js';
import { DEFAULT_MAX_TRACE_BYTES, StructLogger, TraceTooLarge } from '../../../../src/eth/engine/trace/structLogger.js';
import { formatTrace } from '../../../../src/eth/format/trace.js';

const address = createAddressFromString('0x' + '11'.repeat(20));
const state = {} as StepState;
const frame: Frame = {
  depth: 0,
  type: 'CALL',
  from: address,
  to: address,
  address,
  input: new Uint8Array(),
  gas: 10n ** 9n,
  value: 0n,
  isStatic: false,
  state,
  returnData: new Uint8Array(),
};
const step = (i: number): Step => ({
  pc: i % 3,
  opcode: 0x5b,
  op: 'JUMPDEST',
  gas: 10n ** 9n - BigInt(i),
  cost: 1n,
  depth: 1,
  stack: [1n, 2n],
  memory: new Uint8Array(),
  refund: 0n,
  address,
  frame,
  state,
});
const opts = { disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 };

describe('struct logger bounds', () => {
  it('stops a trace past its byte budget, counting memory: 256 KB of memory a step passes 256 MB within ~350 steps', () => {
    const logger = new StructLogger({ ...opts, enableMemory: true, disableStack: true });
    const memory = new Uint8Array(256 * 1024);
    let steps = 0;
    expect(() => {
      for (; steps < 300_000; steps++) logger.flatStep(steps, 0x5b, 'JUMPDEST', 1n, 1n, 1, [], 0n, address, frame, state, memory);
    }).toThrow(new TraceTooLarge(DEFAULT_MAX_TRACE_BYTES));
    expect(steps).toBeLessThan(400);
    expect(logger.size).toBeGreaterThan(DEFAULT_MAX_TRACE_BYTES);
    expect(logger.size).toBeLessThan(DEFAULT_MAX_TRACE_BYTES + 2 * 1024 * 1024);
  });

  it('counts every copy of the storage maps: 2,000 SSTOREs of new slots pass the budget', () => {
    const logger = new StructLogger(opts);
    let steps = 0;
    expect(() => {
      for (; steps < 2_000; steps++) logger.flatStep(0, 0x55, 'SSTORE', 1n, 1n, 1, [1n, BigInt(steps)], 0n, address, frame, state);
    }).toThrow(TraceTooLarge);
    // The entries alone are a few hundred KB; the maps copied into them (n(n+1)/2 slots) pass 256 MB.
    expect(steps).toBeGreaterThan(1_000);
  });

  it('counts stack words: a smaller budget stops a trace of deep stacks', () => {
    const logger = new StructLogger(opts, 1_000_000);
    const stack = Array.from({ length: 1_000 }, (_, i) => BigInt(i) << 200n);
    expect(() => {
      for (let i = 0; i < 100; i++) logger.flatStep(i, 0x5b, 'JUMPDEST', 1n, 1n, 1, stack, 0n, address, frame, state);
    }).toThrow(new TraceTooLarge(1_000_000));
  });

  it('a trace under its budget is untouched', () => {
    const logger = new StructLogger(opts);
    for (let i = 0; i < 300_001; i++) logger.step(step(i));
    expect(logger.result(0n).logs.length).toBe(300_001);
  });

  it("with a limit keeps what the limit can show, and formats exactly geth's cut", () => {
    const logger = new StructLogger({ ...opts, limit: 4000 });
    for (let i = 0; i < 10_000; i++) logger.step(step(i));
    const result = logger.result(21_000n);
    expect(result.logs.length).toBe(Math.floor(4000 / 40) + 1);
    const shown = (formatTrace(result) as { structLogs: unknown[] }).structLogs;
    const size = (n: number) => shown.slice(0, n).reduce((s: number, l) => s + JSON.stringify(l).length, 0);
    expect(size(shown.length - 1)).toBeLessThanOrEqual(4000);
    expect(size(shown.length)).toBeGreaterThan(4000);
    expect(shown.length).toBeLessThan(result.logs.length);
  });
});
