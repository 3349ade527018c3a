/**
 * Tracing gives the same answer with and without devgate's EVM fast path (src/eth/engine/evm): every transaction of
 * the tracing chain (traceSeed.ts), under every tracer and option set, traced on an opted-in call VM (the fast frame
 * and opcode handlers; the fast loop emits the steps of synchronous `step` listeners itself, steps aside for awaited
 * ones (prestateTracer), and runs for callTracer, 4byteTracer and noopTracer) and on a stock VM over a
 * MerkleStateManager copy: the same wire answer, at two forks; and a transaction traced alone after the ones before it
 * replayed.
 */
import { describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import { interpreterPatched } from '../../../../src/eth/engine/evm/index.js';
import { isOptedIn } from '../../../../src/eth/engine/evm/optIn.js';
import { traceBlockOn, traceTxOn, type TraceRequest } from '../../../../src/eth/engine/trace/run.js';
import type { TracerSpec } from '../../../../src/eth/engine/trace/types.js';
import { formatBlockTraces, formatTrace } from '../../../../src/eth/format/trace.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { traceSeed } from './traceSeed.js';

const SPECS: TracerSpec[] = [
  { kind: 'structLogger', opts: { disableStack: false, disableStorage: false, enableMemory: true, enableReturnData: true, limit: 0 } },
  // Without enableMemory the fast loop hands the struct logger lean step events (no memory bytes: evm/steps.ts).
  { kind: 'structLogger', opts: { disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 } },
  { kind: 'callTracer', opts: { onlyTopCall: false, withLog: false } },
  { kind: 'callTracer', opts: { onlyTopCall: false, withLog: true } },
  { kind: 'prestateTracer', opts: { diffMode: false, disableCode: false, disableStorage: false, includeEmpty: false } },
  { kind: 'prestateTracer', opts: { diffMode: true, disableCode: false, disableStorage: false, includeEmpty: false } },
  { kind: '4byteTracer' },
  { kind: 'noopTracer' },
];

describe.each(['osaka', 'shanghai'])('traces at %s', (fork) => {
  it('are the same on the fast path as on stock @ethereumjs', async () => {
    expect(interpreterPatched).toBe(true);

    const chain = await chainFromSeed(parseSeed(traceSeed(fork), 'trace seed'));
    const parent = chain.blockByNumber(1n)!;
    const block = chain.blockByNumber(2n)!;
    // One stock VM for all: each trace runs inside a checkpoint it reverts.
    const stockVm = await chain.vmAt(parent);
    expect(isOptedIn(stockVm.evm)).toBe(false);
    let compared = 0;
    for (const spec of SPECS) {
      const req: TraceRequest = { spec, timeoutMs: 10_000 };
      // As JSON text: a deep comparison of thousands of struct logs is slow.
      const stock = JSON.stringify(formatBlockTraces(await traceBlockOn(stockVm, block, req)));
      const fast = await chain.withCallVmAt(parent, async (vm) => {
        expect(isOptedIn(vm.evm)).toBe(true);
        return JSON.stringify(formatBlockTraces(await traceBlockOn(vm, block, req)));
      });
      expect(fast === stock, `${spec.kind}: fast path and stock differ`).toBe(true);
      expect(JSON.parse(stock)).toHaveLength(16);
      compared += 16;
    }
    // One transaction alone: the transactions before it replayed untraced.
    for (const i of [6, 12, 15]) {
      const req: TraceRequest = { spec: SPECS[0]!, timeoutMs: 10_000 };
      const stock = formatTrace(await traceTxOn(stockVm, block, i, req));
      expect(await chain.withCallVmAt(parent, async (vm) => formatTrace(await traceTxOn(vm, block, i, req)))).toEqual(stock);
      compared++;
    }
    expect(compared).toBe(SPECS.length * 16 + 3);
  }, 120_000);
});
