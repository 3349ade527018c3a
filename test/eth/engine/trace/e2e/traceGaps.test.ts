/**
 * Tracing gaps of issue 17 over the wire, with viem's client.request on a started gateway (the tracing chain,
 * traceSeed.ts): debug_traceCall's `blockOverrides` (the traced call reads them; geth's errors for the fields it
 * refuses; bad values -32602 naming the member); callTracer's SELFDESTRUCT frames and frames of calls that fail before
 * they start (the frames chain, traceGapsCode.ts), by debug_traceBlockByNumber, debug_traceTransaction and
 * debug_traceCall.
 */
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';
import { UNLIMITED } from '../../../methods/seed.js';
import { traceSeed } from '../traceSeed.js';
import { BLOCK_READER_CODE, framesSeed, HEIR, POOR_CREATOR, SD, SD2, SPENDER } from '../traceGapsCode.js';

let gw: Gateway;
let viem: PublicClient;
let frames: PublicClient;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [traceSeed(), framesSeed('osaka')], keys: UNLIMITED });
  viem = createPublicClient({ transport: http(gw.url('trace')) }) as PublicClient;
  frames = createPublicClient({ transport: http(gw.url('frames')) }) as PublicClient;
});

afterAll(async () => {
  await gw?.stop();
});

const READER = '0x00000000000000000000000000000000000b10c4';
const traceCall = (params: unknown[]) => viem.request({ method: 'debug_traceCall' as never, params: params as never }) as Promise<any>;
const words = (output: string) => Array.from({ length: 8 }, (_, i) => BigInt(`0x${output.slice(2 + i * 64, 2 + (i + 1) * 64)}`));

describe('debug_traceCall blockOverrides', () => {
  it('the traced call reads the overridden header, the chain keeps its own', async () => {
    const config = {
      tracer: 'callTracer',
      stateOverrides: { [READER]: { code: BLOCK_READER_CODE } },
      blockOverrides: {
        number: '0x3e8',
        time: '0x77359400',
        gasLimit: '0xbc614e',
        feeRecipient: '0x00000000000000000000000000000000000fee00',
        prevRandao: `0x${'ab'.repeat(32)}`,
        baseFeePerGas: '0x7',
        blobBaseFee: '0x63',
      },
    };
    const data = `0x${'1'.padStart(64, '0')}`;
    const t = await traceCall([{ to: READER, data, gasPrice: '0xa' }, 'latest', config]);
    expect(t.error).toBeUndefined();
    expect(words(t.output).slice(0, 7)).toEqual([1000n, 2_000_000_000n, 12_345_678n, 0xfee00n, BigInt(`0x${'ab'.repeat(32)}`), 7n, 99n]);
    // BLOCKHASH(1) from the latest block moved to 1000: out of the 256-block window.
    expect(words(t.output)[7]).toBe(0n);
    const head = await viem.getBlock();
    expect(head.number).toBe(3n);
    expect(head.timestamp).not.toBe(2_000_000_000n);
    // Number + 1: the latest block is the parent, BLOCKHASH(3) is its hash.
    const next = await traceCall([{ to: READER, data: `0x${'3'.padStart(64, '0')}` }, 'latest', { ...config, blockOverrides: { number: '0x4' } }]);
    expect(`0x${words(next.output)[7]!.toString(16).padStart(64, '0')}`).toBe(head.hash);
  });

  it('refuses what geth refuses: beaconRoot and withdrawals (-32000), malformed members (-32602)', async () => {
    const err = async (blockOverrides: unknown) => {
      try {
        await traceCall([{ to: READER }, 'latest', { blockOverrides }]);
      } catch (e: any) {
        return { code: e.cause?.code ?? e.code, message: e.cause?.details ?? e.details };
      }
      throw new Error('no error');
    };
    expect(await err({ beaconRoot: `0x${'11'.repeat(32)}` })).toEqual({
      code: -32000,
      message: 'block override "beaconRoot" is not supported for this RPC method',
    });
    expect(await err({ withdrawals: [] })).toEqual({ code: -32000, message: 'block override "withdrawals" is not supported for this RPC method' });
    const bad = await err({ number: 'one' });
    expect(bad.code).toBe(-32602);
    expect(bad.message).toMatch(/^invalid argument 2: "blockOverrides".*"number"/);
  });
});

describe('callTracer frames without a message', () => {
  const request = (method: string, params: unknown[]) => frames.request({ method: method as never, params: params as never }) as Promise<any>;
  const CALL_TRACER = { tracer: 'callTracer' };

  it('SELFDESTRUCT frames and a CALL short of value, over the block and one transaction', async () => {
    const block: any[] = await request('debug_traceBlockByNumber', ['0x1', CALL_TRACER]);
    expect(block[0].result.calls[0].calls).toEqual([{ from: SD2, gas: '0x0', gasUsed: '0x0', to: HEIR, input: '0x', value: '0x99', type: 'SELFDESTRUCT' }]);
    expect(block[1].result.calls).toEqual([{ from: SD, gas: '0x0', gasUsed: '0x0', to: HEIR, input: '0x', value: '0x1234', type: 'SELFDESTRUCT' }]);
    const spent = await request('debug_traceTransaction', [block[2].txHash, CALL_TRACER]);
    expect(spent.calls).toEqual([
      { from: SPENDER, gas: '0x18fc', gasUsed: '0x0', to: HEIR, input: '0x00000000', error: 'insufficient balance for transfer', value: '0x100', type: 'CALL' },
    ]);
    expect(block[2].result).toEqual(spent);
    const created = await request('debug_traceTransaction', [block[3].txHash, CALL_TRACER]);
    expect(created.calls[0]).toMatchObject({ from: POOR_CREATOR, type: 'CREATE', error: 'insufficient balance for transfer', gasUsed: '0x0' });
  });

  it('debug_traceCall shows them too, on a state override that funds nothing', async () => {
    const t = await request('debug_traceCall', [
      { to: SD, data: `0x${HEIR.slice(2).padStart(64, '0')}` },
      'latest',
      { ...CALL_TRACER, stateOverrides: { [SD]: { balance: '0x7' } } },
    ]);
    expect(t.calls).toEqual([{ from: SD, gas: '0x0', gasUsed: '0x0', to: HEIR, input: '0x', value: '0x7', type: 'SELFDESTRUCT' }]);
    const onlyTop = await request('debug_traceCall', [
      { to: SPENDER, data: `0x${HEIR.slice(2).padStart(64, '0')}` },
      'latest',
      { ...CALL_TRACER, tracerConfig: { onlyTopCall: true } },
    ]);
    expect(onlyTop.calls).toBeUndefined();
  });
});
