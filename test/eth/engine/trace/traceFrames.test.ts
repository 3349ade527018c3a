/**
 * The frames geth's tracers show that @ethereumjs makes no message for (src/eth/engine/evm/frameHooks.ts), on real
 * chains (traceGapsCode.ts): SELFDESTRUCT frames (top, nested, in init code), calls and creations that fail before
 * they start (insufficient balance, call depth) with geth's errors and gas used 0, the CREATE2 collision; their
 * effect on 4byteTracer; and the same answers on the EVM fast path as on stock @ethereumjs, with the chain's receipts.
 */
import { bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { isOptedIn } from '../../../../src/eth/engine/evm/optIn.js';
import { traceBlock, traceBlockOn, traceCall, traceTransaction, type TraceRequest } from '../../../../src/eth/engine/trace/run.js';
import type { TracerSpec } from '../../../../src/eth/engine/trace/types.js';
import { formatBlockTraces, formatTrace } from '../../../../src/eth/format/trace.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { asm } from '../evm/evmAsm.js';
import { ACCOUNT0 } from './traceSeed.js';
import { FWD, framesSeed, HEIR, POOR_CREATOR, RECURSE, SD, SD2, SPENDER, TWICE } from './traceGapsCode.js';

const req = (spec: TracerSpec): TraceRequest => ({ spec, timeoutMs: 20_000 });
const callTracer = (withLog = false, onlyTopCall = false) => req({ kind: 'callTracer', opts: { withLog, onlyTopCall } });
const SPECS: TracerSpec[] = [
  { kind: 'callTracer', opts: { onlyTopCall: false, withLog: false } },
  { kind: 'callTracer', opts: { onlyTopCall: false, withLog: true } },
  { kind: 'callTracer', opts: { onlyTopCall: true, withLog: false } },
  { kind: '4byteTracer' },
  { kind: 'structLogger', opts: { disableStack: false, disableStorage: false, enableMemory: true, enableReturnData: true, limit: 0 } },
  { kind: 'prestateTracer', opts: { diffMode: true, disableCode: false, disableStorage: false, includeEmpty: false } },
];

const chains = new Map<string, { chain: EthChain; block: MinedBlock }>();
beforeAll(async () => {
  for (const fork of ['osaka', 'shanghai', 'homestead']) {
    const chain = await chainFromSeed(parseSeed(framesSeed(fork), `frames seed ${fork}`));
    chains.set(fork, { chain, block: chain.blockByNumber(1n)! });
  }
});
const trace = async (fork: string, i: number, r: TraceRequest = callTracer()): Promise<any> => {
  const { chain, block } = chains.get(fork)!;
  return formatTrace(await traceTransaction(chain, block, i, r));
};

describe('SELFDESTRUCT frames', () => {
  it.each(['osaka', 'shanghai', 'homestead'])('at %s: one per SELFDESTRUCT, in the frame that ran it, as geth shows it', async (fork) => {
    // Nested: FWD calls SD2, which self-destructs to HEIR with its 0x99 wei.
    const nested = await trace(fork, 0);
    expect(nested.calls).toHaveLength(1);
    expect(nested.calls[0]).toMatchObject({ type: 'CALL', from: FWD, to: SD2 });
    expect(nested.calls[0].calls).toEqual([{ type: 'SELFDESTRUCT', from: SD2, to: HEIR, gas: '0x0', gasUsed: '0x0', input: '0x', value: '0x99' }]);
    // At the top: the transaction's own frame self-destructs.
    const top = await trace(fork, 1);
    expect(top.calls).toEqual([{ type: 'SELFDESTRUCT', from: SD, to: HEIR, gas: '0x0', gasUsed: '0x0', input: '0x', value: '0x1234' }]);
    expect(top.error).toBeUndefined();
    // In init code: from the address being created, to the sender.
    const created = await trace(fork, 4);
    expect(created.type).toBe('CREATE');
    expect(created.calls).toEqual([{ type: 'SELFDESTRUCT', from: created.to, to: ACCOUNT0, gas: '0x0', gasUsed: '0x0', input: '0x', value: '0x10' }]);
  });

  it('not with onlyTopCall; withLog keeps them', async () => {
    expect((await trace('osaka', 1, callTracer(false, true))).calls).toBeUndefined();
    expect((await trace('osaka', 0, callTracer(true))).calls[0].calls[0]).toMatchObject({ type: 'SELFDESTRUCT', value: '0x99' });
  });
});

describe('frames of calls that fail before they start', () => {
  it.each(['osaka', 'homestead'])('at %s: a CALL of more value than the caller holds', async (fork) => {
    const t = await trace(fork, 2);
    expect(t.error).toBeUndefined();
    // 0x1000 asked + the 2,300 stipend of a value transfer; nothing used, no output.
    expect(t.calls).toEqual([
      { type: 'CALL', from: SPENDER, to: HEIR, gas: '0x18fc', gasUsed: '0x0', input: '0x00000000', value: '0x100', error: 'insufficient balance for transfer' },
    ]);
    // geth's 4byteTracer counts it: OnEnter runs before the balance check.
    expect(await trace(fork, 2, req({ kind: '4byteTracer' }))).toEqual({ '0x00000000-0': 1, '0x00000000-28': 1 });
  });

  it.each(['osaka', 'homestead'])('at %s: a CREATE of more value than the creator holds, without `to`', async (fork) => {
    const t = await trace(fork, 3);
    expect(t.calls).toHaveLength(1);
    const frame = t.calls[0];
    expect(frame).toMatchObject({
      type: 'CREATE',
      from: POOR_CREATOR,
      gasUsed: '0x0',
      input: '0x00',
      value: '0x100',
      error: 'insufficient balance for transfer',
    });
    expect(frame.to).toBeUndefined();
    expect(BigInt(frame.gas)).toBeGreaterThan(100_000n);
    expect(BigInt(frame.gas)).toBeLessThan(200_000n);
  });

  it('the call depth limit: the 1,025th frame calls and fails with geth\'s "max call depth exceeded"', async () => {
    const { chain, block } = chains.get('homestead')!;
    const i = block.txHashes.length - 1;
    expect(block.receipts[i]!.status ?? 1).toBe(1);
    let frame = await trace('homestead', i);
    let depth = 0;
    while (frame.calls !== undefined) {
      expect(frame.calls).toHaveLength(1);
      frame = frame.calls[0];
      depth++;
    }
    expect(depth).toBe(1025);
    expect(frame).toMatchObject({ type: 'CALL', from: RECURSE, to: RECURSE, gasUsed: '0x0', input: '0x', value: '0x0', error: 'max call depth exceeded' });
    expect(BigInt(frame.gas)).toBeGreaterThan(0n);
    // The struct logger is unchanged by it: 1,025 frames of 11 opcodes.
    const structs = formatTrace(await traceTransaction(chain, block, i, req(SPECS[4]!))) as any;
    expect(structs.failed).toBe(false);
    expect(Math.max(...structs.structLogs.map((l: any) => l.depth))).toBe(1025);
  }, 60_000);

  it('a CREATE2 collision shows as before: the frame used all its gas', async () => {
    const t = await trace('osaka', 5);
    expect(t.calls).toHaveLength(2);
    expect(t.calls[0]).toMatchObject({ type: 'CREATE2', from: TWICE, gasUsed: '0x0' });
    expect(t.calls[0].to).toBeDefined();
    expect(t.calls[1]).toMatchObject({ type: 'CREATE2', from: TWICE, error: 'contract address collision' });
    expect(t.calls[1].gasUsed).toBe(t.calls[1].gas);
    expect(t.calls[1].to).toBeUndefined();
  });
});

describe.each(['osaka', 'shanghai'])('at %s', (fork) => {
  it('every tracer answers the same on the fast path as on stock @ethereumjs, and callTracer gas used matches the receipts', async () => {
    const { chain, block } = chains.get(fork)!;
    const parent = chain.blockByNumber(0n)!;
    const stockVm = await chain.vmAt(parent);
    expect(isOptedIn(stockVm.evm)).toBe(false);
    const ops = [0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xfa, 0xff];
    const table = (stockVm.evm as unknown as { _opcodeMap: { opHandler: unknown }[] })._opcodeMap;
    const stockHandlers = ops.map((op) => table[op]!.opHandler);
    for (const spec of SPECS) {
      const stock = JSON.stringify(formatBlockTraces(await traceBlockOn(stockVm, block, req(spec))));
      const fast = await chain.withCallVmAt(parent, async (vm) => {
        expect(isOptedIn(vm.evm)).toBe(true);
        return JSON.stringify(formatBlockTraces(await traceBlockOn(vm, block, req(spec))));
      });
      expect(fast === stock, `${spec.kind}: fast path and stock differ`).toBe(true);
    }
    const traces = formatBlockTraces(await traceBlock(chain, block, callTracer())) as any[];
    expect(traces.map((t) => BigInt(t.result.gasUsed))).toEqual(block.receipts.map((r) => r.gasUsed));
    // The stock handlers are back after tracing.
    expect(ops.every((op, i) => table[op]!.opHandler === stockHandlers[i])).toBe(true);
  });
});

describe("errors in geth's words where @ethereumjs words them otherwise", () => {
  const call = (data: string, gas: bigint, to?: string) => ({
    from: createAddressFromString(ACCOUNT0),
    to: to === undefined ? undefined : createAddressFromString(to),
    data: hexToBytes(data as `0x${string}`),
    gas,
  });
  const struct = req(SPECS[4]!);

  it('a creation that cannot pay its code deposit: "contract creation code storage out of gas", not on the RETURN entry', async () => {
    const { chain, block } = chains.get('osaka')!;
    // Init code returning 200 bytes: it runs in ~30 gas, its deposit costs 40,000.
    const initCode = bytesToHex(asm('0xc8 0x00 RETURN'));
    for (const withLog of [false, true]) {
      const t = formatTrace(await traceCall(chain, block, call(initCode, 60_000n), callTracer(withLog))) as any;
      expect(t).toMatchObject({ type: 'CREATE', error: 'contract creation code storage out of gas', gas: '0xea60', gasUsed: '0xea60' });
      expect(t.to).toBeUndefined();
    }
    const s = formatTrace(await traceCall(chain, block, call(initCode, 60_000n), struct)) as any;
    expect(s.failed).toBe(true);
    expect(s.structLogs.at(-1)).toMatchObject({ op: 'RETURN' });
    expect(s.structLogs.at(-1).error).toBeUndefined();
    // Enough gas: no error.
    expect((formatTrace(await traceCall(chain, block, call(initCode, 200_000n), callTracer())) as any).error).toBeUndefined();
  });

  it('before Homestead that creation keeps its account and is no error (geth: not reverted)', async () => {
    const chain = await chainFromSeed(parseSeed(framesSeed('chainstart'), 'frames seed chainstart'));
    const t = formatTrace(await traceCall(chain, chain.head(), call(bytesToHex(asm('0xc8 0x00 RETURN')), 60_000n), callTracer())) as any;
    expect(t).toMatchObject({ type: 'CREATE', gas: '0xea60' });
    expect(t.error).toBeUndefined();
    expect(t.to).toMatch(/^0x[0-9a-f]{40}$/);
    // Less than the gas: the deposit was not charged.
    expect(BigInt(t.gasUsed)).toBeLessThan(60_000n);
  });

  it('a jump to no JUMPDEST: "invalid jump destination", on the fast loop and the stock one', async () => {
    const { chain, block } = chains.get('osaka')!;
    const code = bytesToHex(asm('0x00 JUMP'));
    for (const withLog of [false, true]) {
      const t = formatTrace(await traceCall(chain, block, call(code, 100_000n), callTracer(withLog))) as any;
      expect(t.error).toBe('invalid jump destination');
    }
  });
});
