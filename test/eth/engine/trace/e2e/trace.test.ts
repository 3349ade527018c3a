/**
 * Tracing over the wire with unchanged clients: viem's client.request and ethers' provider.send call
 * debug_traceTransaction, debug_traceCall, debug_traceBlockByNumber and debug_traceBlockByHash on a started gateway
 * (the tracing chain, traceSeed.ts); bad parameters answer -32602 naming the problem, missing things geth's -32000.
 */
import { JsonRpcProvider, Network } from 'ethers';
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';
import { UNLIMITED } from '../../../methods/seed.js';
import { call } from '../../../../support/http.js';
import { ACCOUNT0, ACCOUNT1, encode, PROXY, REVERTER, TOKEN, traceSeed, viaProxy } from '../traceSeed.js';

let gw: Gateway;
let url: string;
let viem: PublicClient;
let ethers: JsonRpcProvider;
let txs: string[];

beforeAll(async () => {
  gw = await start({ port: 0, chains: [traceSeed()], keys: UNLIMITED });
  url = gw.url('trace');
  viem = createPublicClient({ transport: http(url) }) as PublicClient;
  const network = Network.from(1337);
  ethers = new JsonRpcProvider(url, network, { staticNetwork: network, batchMaxCount: 1 });
  txs = (await viem.getBlock({ blockNumber: 2n })).transactions as string[];
});

afterAll(async () => {
  ethers?.destroy();
  await gw?.stop();
});

describe('viem', () => {
  it('debug_traceTransaction with callTracer and the struct logger', async () => {
    const receipt = await viem.getTransactionReceipt({ hash: txs[5] as `0x${string}` });
    const calls: any = await viem.request({
      method: 'debug_traceTransaction' as never,
      params: [txs[5], { tracer: 'callTracer', tracerConfig: { withLog: true } }] as never,
    });
    expect(calls).toMatchObject({ from: ACCOUNT0, to: PROXY, type: 'CALL', gasUsed: '0x' + receipt.gasUsed.toString(16) });
    expect(calls.calls[0]).toMatchObject({ to: REVERTER, error: 'execution reverted', revertReason: 'Reverter: always reverts' });
    const structs: any = await viem.request({ method: 'debug_traceTransaction' as never, params: [txs[5]] as never });
    expect(structs.gas).toBe(Number(receipt.gasUsed));
    expect(structs.failed).toBe(false);
    expect(structs.structLogs.length).toBeGreaterThan(50);
    expect(Object.keys(structs.structLogs[0])).toEqual(['pc', 'op', 'gas', 'gasCost', 'depth', 'stack']);
  });

  it('debug_traceCall on latest, and before a transaction with txIndex', async () => {
    const counter = async (config: object) =>
      BigInt(
        (
          (await viem.request({
            method: 'debug_traceCall' as never,
            params: [{ from: ACCOUNT1, to: REVERTER, data: encode('increment') }, '0x2', { tracer: 'callTracer', ...config }] as never,
          })) as any
        ).output,
      );
    expect(await counter({})).toBe((await counter({ txIndex: '0xf' })) + 1n);
    const pre: any = await viem.request({
      method: 'debug_traceCall' as never,
      params: [{ from: ACCOUNT0, to: TOKEN, data: encode('transfer', [ACCOUNT1, 1n]) }, 'latest', { tracer: 'prestateTracer' }] as never,
    });
    expect(Object.keys(pre[TOKEN].storage)).toHaveLength(2);
  });

  it('debug_traceBlockByNumber and debug_traceBlockByHash answer alike', async () => {
    const block = await viem.getBlock({ blockNumber: 2n });
    const byNumber: any[] = await viem.request({ method: 'debug_traceBlockByNumber' as never, params: ['0x2', { tracer: '4byteTracer' }] as never });
    const byHash: any[] = await viem.request({ method: 'debug_traceBlockByHash' as never, params: [block.hash, { tracer: '4byteTracer' }] as never });
    expect(byHash).toEqual(byNumber);
    expect(byNumber.map((t) => t.txHash)).toEqual(block.transactions);
    expect(byNumber[1].result).toEqual({ '0xa9059cbb-64': 1 });
    expect(await viem.request({ method: 'debug_traceBlockByNumber' as never, params: ['latest', { tracer: 'noopTracer' }] as never })).toEqual([]);
  });
});

describe('ethers', () => {
  it('provider.send traces, and a nested call shows its tree', async () => {
    const nested = await ethers.send('debug_traceTransaction', [txs[12], { tracer: 'callTracer' }]);
    expect(nested.calls[0].calls[0]).toMatchObject({ from: PROXY, to: TOKEN, error: 'execution reverted' });
    const diff = await ethers.send('debug_traceTransaction', [txs[10], { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    expect(Object.keys(diff)).toEqual(['post', 'pre']);
    const top = await ethers.send('debug_traceCall', [
      { to: PROXY, data: viaProxy(1, TOKEN, encode('balanceOf', [ACCOUNT0])) },
      'latest',
      { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } },
    ]);
    expect(top.calls).toBeUndefined();
    expect(BigInt(top.output)).toBeGreaterThan(0n);
  });

  it('errors come back as errors', async () => {
    await expect(ethers.send('debug_traceTransaction', ['0x' + '00'.repeat(31) + '01'])).rejects.toThrow(/transaction not found/);
  });
});

describe('bad requests', () => {
  const error = async (method: string, params: unknown[]) => (await call(url, method, params)).error;

  it('debug_traceCall takes stateOverrides as eth_call does: the trace runs on the overridden state, the chain keeps its own', async () => {
    const code = '0x602a60005260206000f3'; // returns 42
    const trace = (await call(url, 'debug_traceCall', [{ to: TOKEN }, 'latest', { tracer: 'callTracer', stateOverrides: { [TOKEN]: { code } } }])).result;
    expect(trace.output).toBe(`0x${'2a'.padStart(64, '0')}`);
    const pre = (await call(url, 'debug_traceCall', [{ to: TOKEN }, 'latest', { tracer: 'prestateTracer', stateOverrides: { [TOKEN]: { balance: '0x7' } } }]))
      .result;
    expect(pre[TOKEN].balance).toBe('0x7');
    expect((await call(url, 'eth_getBalance', [TOKEN, 'latest'])).result).toBe('0x0');
    expect((await call(url, 'eth_getCode', [TOKEN, 'latest'])).result).not.toBe(code);
  });

  it('answer -32602 naming the parameter', async () => {
    expect(await error('debug_traceTransaction', ['0x1234'])).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string has length 4, want 64 for a 32-byte hash',
    });
    expect(await error('debug_traceTransaction', [txs[1], { disableStack: 'yes' }])).toEqual({
      code: -32602,
      message: 'invalid argument 1: "disableStack": expected a boolean, got the string "yes"',
    });
    expect(await error('debug_traceTransaction', [txs[1], { timeout: '5 seconds' }])).toEqual({
      code: -32602,
      message: 'invalid argument 1: "timeout": time: invalid duration "5 seconds"',
    });
    expect((await error('debug_traceTransaction', [txs[1], { tracer: 'function() { return {} }' }])).message).toMatch(
      /^invalid argument 1: tracer .* not found: devgate serves the struct logger/,
    );
    expect(await error('debug_traceTransaction', [txs[1], { tracer: 'prestateTracer', tracerConfig: { diffMode: true, includeEmpty: true } }])).toEqual({
      code: -32602,
      message: 'invalid argument 1: cannot use diffMode with includeEmpty',
    });
    expect((await error('debug_traceCall', [{ to: TOKEN }, 'latest', { blockOverrides: { number: 'one' } }])).code).toBe(-32602);
    expect((await error('debug_traceCall', [{ to: TOKEN }, 'latest', { stateOverrides: { [TOKEN]: { state: {}, stateDiff: {} } } }])).code).toBe(-32000);
    expect(await error('debug_traceCall', [{ to: TOKEN }])).toEqual({ code: -32602, message: 'missing value for required argument 1' });
    expect(await error('debug_traceBlockByNumber', ['2'])).toEqual({ code: -32602, message: 'invalid argument 0: hex string without 0x prefix' });
  });

  it("answer geth's -32000 for what is not there or not traceable, and for a timeout", async () => {
    expect(await error('debug_traceBlockByNumber', ['0x64'])).toEqual({ code: -32000, message: 'block #100 not found' });
    expect(await error('debug_traceBlockByNumber', ['0x0'])).toEqual({ code: -32000, message: 'genesis is not traceable' });
    expect(await error('debug_traceBlockByHash', ['0x' + '00'.repeat(32)])).toEqual({ code: -32000, message: `block 0x${'00'.repeat(32)} not found` });
    expect(await error('debug_traceCall', [{ to: TOKEN }, 'pending'])).toEqual({ code: -32000, message: 'tracing on top of pending is not supported' });
    expect(await error('debug_traceCall', [{ to: REVERTER, data: encode('burnGas', [10n ** 6n]) }, 'latest', { timeout: '20ms' }])).toEqual({
      code: -32000,
      message: 'execution timeout',
    });
  });
});
