/**
 * The tracing figures (issue 17): debug_traceTransaction of random bench transactions (ERC-20 transfers, each in a
 * block of 10: the ones before it run again first) with callTracer and with the struct logger, side by side with
 * anvil. Target 0.5x anvil (EVM work). Both servers must agree on the call frame and on the opcodes run (pc, op,
 * gas left, cost). Not on the transaction's gas used: anvil 1.7.1 reports the block's cumulative gas there for every
 * transaction after the first of its block (foundry-rs/foundry#15893: 55,456 where the receipt says 34,456); devgate
 * reports the receipt's, as geth (test/eth/engine/trace/trace.test.ts holds it to the receipts). anvil started without
 * `--steps-tracing` answers the struct logger with `structLogs: []` (it traces from what it recorded when mining), so
 * the struct logger figure runs against a second anvil started with `--steps-tracing` on the same replayed chain
 * (STEPS_TRACING_FIGURES; bench/run.ts), and the check compares every opcode (pc, op, gas left, cost) of both answers.
 */
import type { Figure } from './figures.js';

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

/** Figures measured against an anvil started with `--steps-tracing` (bench/run.ts starts it when one of them runs). */
export const STEPS_TRACING_FIGURES: ReadonlySet<string> = new Set(['traceStruct']);

export const TRACE_FIGURES: readonly Figure[] = [
  {
    id: 'traceCall',
    label: 'debug_traceTransaction callTracer',
    transport: 'http',
    target: 0.5,
    make: (rand, meta) => ({ method: 'debug_traceTransaction', params: [pick(rand, meta.txHashes), { tracer: 'callTracer' }] }),
    digest: (r) =>
      r == null
        ? r
        : { type: r.type, from: lower(r.from), to: lower(r.to), input: lower(r.input), output: lower(r.output), error: r.error, calls: (r.calls ?? []).length },
  },
  {
    id: 'traceStruct',
    label: 'debug_traceTransaction struct logger',
    transport: 'http',
    target: 0.5,
    make: (rand, meta) => ({ method: 'debug_traceTransaction', params: [pick(rand, meta.txHashes), {}] }),
    digest: (r) =>
      r == null
        ? r
        : {
            failed: r.failed,
            returnValue: lower(r.returnValue),
            steps: (r.structLogs ?? []).length,
            ops: (r.structLogs ?? []).map((l: any) => `${l.pc}:${l.op}:${l.gas}:${l.gasCost}`).join(' '),
          },
  },
];
