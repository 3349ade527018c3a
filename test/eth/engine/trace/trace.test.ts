/**
 * The tracers on a real chain (traceSeed.ts), held to what the chain itself recorded: gas used and status of every
 * receipt, its logs (address, topics, data, block-wide index), the code CREATE left, the output eth_call gives; and
 * to geth's shapes (call types, from/to of DELEGATECALL and CALLCODE, revert reasons, errors, omitted fields).
 */
import { createAddressFromString, bytesToHex } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { callAt } from '../../../../src/eth/engine/exec/call.js';
import { traceBlock, traceCall, traceTransaction, type TraceRequest } from '../../../../src/eth/engine/trace/run.js';
import type { StructLoggerOptions, TracerSpec } from '../../../../src/eth/engine/trace/types.js';
import { formatBlockTraces, formatTrace } from '../../../../src/eth/format/trace.js';
import { ExecutionFailed } from '../../../../src/errors.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { ACCOUNT0, ACCOUNT1, COINBASE, EMITTER, encode, hex, PROXY, REVERTER, TOKEN, traceSeed, UNDERFLOW } from './traceSeed.js';

const STRUCT: StructLoggerOptions = { disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 };
const req = (spec: TracerSpec, timeoutMs = 5000): TraceRequest => ({ spec, timeoutMs });
const callTracer = (withLog = false, onlyTopCall = false) => req({ kind: 'callTracer', opts: { withLog, onlyTopCall } });
const structLogger = (opts: Partial<StructLoggerOptions> = {}) => req({ kind: 'structLogger', opts: { ...STRUCT, ...opts } });
const prestate = (diffMode: boolean, more: { disableCode?: boolean; disableStorage?: boolean; includeEmpty?: boolean } = {}) =>
  req({ kind: 'prestateTracer', opts: { diffMode, disableCode: false, disableStorage: false, includeEmpty: false, ...more } });

let chain: EthChain;
let block: MinedBlock;
const trace = async (index: number, r: TraceRequest): Promise<any> => formatTrace(await traceTransaction(chain, block, index, r));

beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(traceSeed(), 'trace seed'));
  block = chain.blockByNumber(2n)!;
});

describe('callTracer', () => {
  it('reports every transaction with the gas limit and the receipt gas used, failed ones with geth errors', async () => {
    const traces = formatBlockTraces(await traceBlock(chain, block, callTracer())) as any[];
    expect(traces.map((t) => t.txHash)).toEqual(block.txHashes.map((h) => bytesToHex(h)));
    traces.forEach((t, i) => {
      const tx = block.block.transactions[i]!;
      expect(BigInt(t.result.gas)).toBe(tx.gasLimit);
      expect(BigInt(t.result.gasUsed)).toBe(block.receipts[i]!.gasUsed);
      expect(t.result.error === undefined).toBe(block.receipts[i]!.status === 1);
      expect(t.result.from).toBe(ACCOUNT0);
    });
    expect(traces[14].result).toMatchObject({ error: 'out of gas', to: REVERTER, type: 'CALL', value: '0x0' });
    expect(traces[14].result.output).toBeUndefined();
    expect(traces[0].result).toEqual({ from: ACCOUNT0, gas: '0x5208', gasUsed: '0x5208', to: ACCOUNT1, input: '0x', value: '0x2a', type: 'CALL' });
  });

  it('decodes revert reasons as geth: Error(string) and Panic(uint256)', async () => {
    expect(await trace(3, callTracer())).toMatchObject({ error: 'execution reverted', revertReason: 'Reverter: always reverts', type: 'CALL' });
    const panic = await trace(4, callTracer());
    expect(panic).toMatchObject({ error: 'execution reverted', revertReason: 'division or modulo by zero' });
    expect(panic.output.slice(0, 10)).toBe('0x4e487b71');
    const inner = await trace(5, callTracer());
    expect(inner.error).toBeUndefined();
    expect(inner.calls).toHaveLength(1);
    expect(inner.calls[0]).toMatchObject({
      from: PROXY,
      to: REVERTER,
      input: encode('revertWithReason'),
      error: 'execution reverted',
      revertReason: 'Reverter: always reverts',
      type: 'CALL',
    });
  });

  it('names each kind of frame as geth does, with its from, to, value and input', async () => {
    const staticCall = (await trace(7, callTracer())).calls[0];
    expect(staticCall).toMatchObject({ type: 'STATICCALL', from: PROXY, to: TOKEN, input: encode('balanceOf', [ACCOUNT0]) });
    expect(staticCall.value).toBeUndefined();
    const balance = await callAt(chain, block, { to: createAddressFromString(TOKEN), data: hex(encode('balanceOf', [ACCOUNT0])) });
    expect(staticCall.output).toBe(bytesToHex(balance).replace(/^0x$/, '0x'));
    expect((await trace(8, callTracer())).calls[0]).toMatchObject({ type: 'DELEGATECALL', from: PROXY, to: REVERTER, value: '0x0' });
    expect((await trace(9, callTracer())).calls[0]).toMatchObject({ type: 'CALLCODE', from: PROXY, to: REVERTER, value: '0x0' });
    for (const [i, type, value] of [
      [10, 'CREATE', '0x0'],
      [11, 'CREATE2', '0x5'],
    ] as const) {
      const created = (await trace(i, callTracer())).calls[0];
      expect(created).toMatchObject({ type, from: PROXY, value });
      const code = await chain.getCode(createAddressFromString(created.to), block);
      expect(created.output).toBe(bytesToHex(code));
    }
    const nested = await trace(12, callTracer());
    expect(nested.calls[0]).toMatchObject({ from: PROXY, to: PROXY, type: 'CALL' });
    expect(nested.calls[0].calls[0]).toMatchObject({ from: PROXY, to: TOKEN, error: 'execution reverted', type: 'CALL' });
    // A precompile is a frame too.
    expect((await trace(13, callTracer())).calls[0]).toMatchObject({ to: '0x0000000000000000000000000000000000000002', input: '0xdeadbeef', gasUsed: '0x48' });
  });

  it('withLog: the logs of the block, as its receipts hold them, with their positions among subcalls', async () => {
    const traces = formatBlockTraces(await traceBlock(chain, block, callTracer(true))) as any[];
    const logsOf = (f: any): any[] => [...(f.logs ?? []), ...(f.calls ?? []).flatMap(logsOf)];
    const traced = traces.flatMap((t) => logsOf(t.result)).sort((a, b) => Number(a.index) - Number(b.index));
    const recorded = block.receipts.flatMap((r) => r.logs);
    expect(traced.map((l) => [l.address, l.topics, l.data, Number(l.index)])).toEqual(
      recorded.map((l) => [l.address.toString(), l.topics.map((t) => bytesToHex(t)), bytesToHex(l.data), l.logIndex]),
    );
    expect(recorded.length).toBeGreaterThan(8);
    // The proxy logs after its one call (position 1); the emitter's own logs come before any call (position 0).
    const viaProxy = traces[6].result;
    expect(viaProxy.logs.map((l: any) => l.position)).toEqual(['0x1']);
    expect(viaProxy.calls[0].logs.map((l: any) => l.position)).toEqual(['0x0', '0x0']);
    // A reverted call keeps no logs.
    expect(traces[12].result.calls[0].calls[0].logs).toBeUndefined();
  });

  it('onlyTopCall keeps the transaction frame alone', async () => {
    const top = await trace(12, callTracer(false, true));
    expect(top.calls).toBeUndefined();
    expect(top.gasUsed).toBe('0x' + block.receipts[12]!.gasUsed.toString(16));
  });
});

describe('struct logger', () => {
  it('gives the receipt gas used, the status and the output; a transfer runs no code', async () => {
    const traces = formatBlockTraces(await traceBlock(chain, block, structLogger())) as any[];
    traces.forEach((t, i) => {
      expect(t.result.gas).toBe(Number(block.receipts[i]!.gasUsed));
      expect(t.result.failed).toBe(block.receipts[i]!.status === 0);
    });
    expect(traces[0].result).toEqual({ gas: 21000, failed: false, returnValue: '0x', structLogs: [] });
    expect(traces[3].result.returnValue.slice(0, 10)).toBe('0x08c379a0');
    expect(traces[14].result.returnValue).toBe('0x');
    const last = traces[14].result.structLogs.at(-1);
    expect(last.error).toBe('out of gas');
    expect(last.gasCost).toBeGreaterThan(last.gas);
  });

  it('counts gas step by step: each opcode leaves what the next one starts with', async () => {
    const logs = (await trace(12, structLogger())).structLogs as any[];
    let checked = 0;
    for (let i = 0; i + 1 < logs.length; i++) {
      const [a, b] = [logs[i], logs[i + 1]];
      if (a.depth !== b.depth || /CALL|CREATE/.test(a.op)) continue;
      expect(b.gas, `${a.op} at pc ${a.pc}`).toBe(a.gas - a.gasCost);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    expect(new Set(logs.map((l) => l.depth))).toEqual(new Set([1, 2, 3]));
    // Stack words are minimal hex, bottom first; the stack before a PUSH does not hold what it pushes.
    expect(logs[0]).toMatchObject({ pc: 0, depth: 1, stack: [] });
  });

  it('shows storage at SLOAD/SSTORE, memory and return data on request, and hides the stack on request', async () => {
    const plain = (await trace(8, structLogger())).structLogs as any[];
    const sstore = plain.find((l) => l.op === 'SSTORE');
    expect(sstore.storage).toEqual({ ['0x' + '00'.repeat(32)]: '0x' + '00'.repeat(31) + '02' });
    expect(plain.some((l) => l.memory !== undefined || l.returnData !== undefined)).toBe(false);
    const full = (await trace(8, structLogger({ enableMemory: true, enableReturnData: true, disableStack: true, disableStorage: true }))).structLogs as any[];
    expect(full.some((l) => l.stack !== undefined || l.storage !== undefined)).toBe(false);
    expect(full.filter((l) => l.memory !== undefined).every((l) => l.memory.every((w: string) => /^0x[0-9a-f]{64}$/.test(w)))).toBe(true);
    expect(full.some((l) => l.returnData === '0x' + '00'.repeat(31) + '02')).toBe(true);
    expect(full).toHaveLength(plain.length);
  });

  it('stops logging once the logs pass `limit` bytes, as geth', async () => {
    const all = (await trace(12, structLogger())).structLogs as any[];
    const cut = (await trace(12, structLogger({ limit: 2000 }))).structLogs as any[];
    expect(cut.length).toBeLessThan(all.length);
    expect(cut).toEqual(all.slice(0, cut.length));
    const size = (n: number) => cut.slice(0, n).reduce((s, l) => s + JSON.stringify(l).length, 0);
    expect(size(cut.length - 1)).toBeLessThanOrEqual(2000);
    expect(size(cut.length)).toBeGreaterThan(2000);
  });
});

describe('prestateTracer', () => {
  it('shows the accounts and slots a transaction touched as they were before it', async () => {
    const first = await trace(0, prestate(false));
    const sender = (await chain.getAccount(createAddressFromString(ACCOUNT0), chain.blockByNumber(1n)!))!;
    expect(first[ACCOUNT0]).toEqual({ balance: '0x' + sender.balance.toString(16), nonce: Number(sender.nonce) });
    // The coinbase had nothing before the block's first transaction: an empty account is left out.
    expect(Object.keys(first).sort()).toEqual([ACCOUNT0, ACCOUNT1].sort());
    expect(Object.keys(await trace(0, prestate(false, { includeEmpty: true }))).sort()).toEqual([ACCOUNT0, ACCOUNT1, COINBASE].sort());
    const pre = await trace(1, prestate(false));
    expect(Object.keys(pre).sort()).toEqual([COINBASE, ACCOUNT0, TOKEN].sort());
    expect(pre[ACCOUNT0].nonce).toBe(Number(sender.nonce) + 1);
    expect(Object.keys(pre[TOKEN].storage)).toHaveLength(2);
    expect(pre[TOKEN].code).toMatch(/^0x60/);
    expect((await trace(1, prestate(false, { disableCode: true, disableStorage: true })))[TOKEN].code).toBeUndefined();
  });

  it('diffMode: what changed, before and after', async () => {
    const diff = await trace(1, prestate(true));
    expect(Object.keys(diff)).toEqual(['post', 'pre']);
    expect(diff.post[ACCOUNT0].nonce).toBe(diff.pre[ACCOUNT0].nonce + 1);
    expect(Object.keys(diff.post[TOKEN].storage)).toHaveLength(2);
    expect(diff.post[TOKEN].code).toBeUndefined();
    // A contract CREATE made shows up in post with its code.
    const created = await trace(10, prestate(true));
    const fresh = Object.keys(created.post).find((a) => created.post[a].code !== undefined)!;
    expect(created.pre[fresh]).toBeUndefined();
    expect(created.post[fresh]).toMatchObject({ nonce: 1, storage: { ['0x' + '00'.repeat(32)]: '0x' + '00'.repeat(31) + '2a' } });
  });
});

describe('4byteTracer and noopTracer', () => {
  it('count selectors and input sizes of calls, not of precompiles', async () => {
    expect(await trace(1, req({ kind: '4byteTracer' }))).toEqual({ '0xa9059cbb-64': 1 });
    expect(await trace(13, req({ kind: '4byteTracer' }))).toEqual({ '0x00000000-21': 1 });
    expect(await trace(7, req({ kind: '4byteTracer' }))).toEqual({ '0x015fbdb2-53': 1, '0x70a08231-32': 1 });
    expect(await trace(1, req({ kind: 'noopTracer' }))).toEqual({});
  });
});

describe('runs', () => {
  it('traceCall runs a call on a block state, or before a transaction of the block with txIndex', async () => {
    const call = { from: createAddressFromString(ACCOUNT1), to: createAddressFromString(REVERTER), data: hex(encode('increment')) };
    const after = formatTrace(await traceCall(chain, block, call, callTracer())) as any;
    const before = formatTrace(await traceCall(chain, block, call, callTracer(), 15)) as any;
    expect(BigInt(after.output)).toBe(BigInt(before.output) + 1n);
    expect(after).toMatchObject({ from: ACCOUNT1, to: REVERTER, type: 'CALL' });
    // Osaka: EIP-7825's cap on a transaction's gas.
    expect(BigInt(after.gas)).toBe(1n << 24n);
    const emitted = formatTrace(
      await traceCall(chain, block, { to: createAddressFromString(EMITTER), data: hex(encode('emitMany', [2n])) }, callTracer(true)),
    ) as any;
    expect(emitted.logs.map((l: any) => l.index)).toEqual(['0x0', '0x1']);
  });

  it("stops at the timeout with geth's error, and never changes the chain", async () => {
    const root = chain.stateRootOf(chain.head());
    const burn = { to: createAddressFromString(REVERTER), data: hex(encode('burnGas', [10n ** 7n])) };
    const t0 = performance.now();
    await expect(traceCall(chain, block, burn, { ...structLogger({ disableStack: true }), timeoutMs: 50 })).rejects.toThrow(
      new ExecutionFailed('execution timeout'),
    );
    await expect(traceCall(chain, block, burn, { ...callTracer(), timeoutMs: 50 })).rejects.toThrow('execution timeout');
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(chain.stateRootOf(chain.head())).toEqual(root);
    expect(await trace(12, callTracer(true))).toEqual(await trace(12, callTracer(true)));
  });

  it('words a stack underflow as geth: with the counts where steps were traced', async () => {
    const call = { to: createAddressFromString(UNDERFLOW) };
    const structs = formatTrace(await traceCall(chain, block, call, structLogger())) as any;
    expect(structs.failed).toBe(true);
    expect(structs.structLogs.map((l: any) => [l.op, l.error])).toEqual([
      ['PUSH1', undefined],
      ['ADD', 'stack underflow (1 <=> 2)'],
    ]);
    expect(formatTrace(await traceCall(chain, block, call, callTracer(true))) as any).toMatchObject({ error: 'stack underflow (1 <=> 2)' });
    expect(formatTrace(await traceCall(chain, block, call, callTracer())) as any).toMatchObject({ error: 'stack underflow' });
  });

  it('does not trace genesis', async () => {
    await expect(traceBlock(chain, chain.blockByNumber(0n)!, callTracer())).rejects.toThrow('genesis is not traceable');
  });
});
