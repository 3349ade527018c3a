/**
 * The traces' JSON text written directly (src/eth/format/traceText.ts) is the very text JSON.stringify gives of the
 * wire objects (src/eth/format/trace.ts): every transaction of the tracing chain's block 2 under the struct logger with
 * each option and several byte limits, an entry with an error, and the other tracers; at two forks.
 */
import { createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../src/eth/engine/build/chainFromSeed.js';
import { traceBlock, traceCall, type TraceRequest } from '../../../src/eth/engine/trace/run.js';
import type { StructLoggerOptions, TracerSpec } from '../../../src/eth/engine/trace/types.js';
import { formatBlockTraces, formatTrace } from '../../../src/eth/format/trace.js';
import { blockTracesText, traceText } from '../../../src/eth/format/traceText.js';
import { parseSeed } from '../../../src/seed/load.js';
import { traceSeed, UNDERFLOW } from '../engine/trace/traceSeed.js';

const STRUCT: StructLoggerOptions = { disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 };
const structs: Partial<StructLoggerOptions>[] = [
  {},
  { enableMemory: true, enableReturnData: true },
  { disableStack: true, disableStorage: true, enableMemory: true },
  { limit: 1 },
  { limit: 3000 },
  { limit: 50_000, enableMemory: true },
];
const others: TracerSpec[] = [
  { kind: 'callTracer', opts: { onlyTopCall: false, withLog: true } },
  { kind: 'prestateTracer', opts: { diffMode: true, disableCode: false, disableStorage: false, includeEmpty: false } },
  { kind: '4byteTracer' },
  { kind: 'noopTracer' },
];
const req = (spec: TracerSpec): TraceRequest => ({ spec, timeoutMs: 10_000 });

describe.each(['osaka', 'shanghai'])('trace text at %s', (fork) => {
  it('is JSON.stringify of the wire objects, for every tracer and struct logger option', async () => {
    const chain = await chainFromSeed(parseSeed(traceSeed(fork), 'trace seed'));
    const block = chain.blockByNumber(2n)!;
    const specs: TracerSpec[] = [...structs.map((o) => ({ kind: 'structLogger' as const, opts: { ...STRUCT, ...o } })), ...others];
    let entries = 0;
    for (const spec of specs) {
      const traces = await traceBlock(chain, block, req(spec));
      expect(blockTracesText(traces).text).toBe(JSON.stringify(formatBlockTraces(traces)));
      for (const t of traces) {
        expect(traceText(t.result).text).toBe(JSON.stringify(formatTrace(t.result)));
        if (t.result.kind === 'structLogger') entries += t.result.logs.length;
      }
    }
    expect(entries).toBeGreaterThan(1000);
    // An entry with geth's error text.
    const failed = await traceCall(chain, block, { to: createAddressFromString(UNDERFLOW) }, req({ kind: 'structLogger', opts: STRUCT }));
    expect(traceText(failed).text).toBe(JSON.stringify(formatTrace(failed)));
    expect(traceText(failed).text).toContain('"error":"stack underflow (1 <=> 2)"');
  }, 60_000);
});
