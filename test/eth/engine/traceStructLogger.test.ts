/**
 * The struct logger's bounds: without a `limit` a trace stops at MAX_STRUCT_LOGS entries (TraceTooLarge, answered
 * -32005 by the methods) instead of filling the process's memory; with a limit it keeps only what the limit can show
 * (each entry's JSON is at least 40 bytes) and lets the run go on.
 */
import { createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { Frame, Step, StepState } from '../../../src/eth/engine/trace/hooks.js';
import { MAX_STRUCT_LOGS, StructLogger, TraceTooLarge } from '../../../src/eth/engine/trace/structLogger.js';
import { formatTrace } from '../../../src/eth/format/trace.js';

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
  it('stops a trace without a limit at MAX_STRUCT_LOGS entries', () => {
    const logger = new StructLogger(opts);
    for (let i = 0; i < MAX_STRUCT_LOGS; i++) logger.step(step(i));
    expect(() => logger.step(step(MAX_STRUCT_LOGS))).toThrow(TraceTooLarge);
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
