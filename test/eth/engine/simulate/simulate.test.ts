/**
 * eth_simulateV1 over the wire (raw JSON-RPC, viem's simulateBlocks/simulateCalls, ethers): blocks that follow each
 * other (state, numbers, times, parent hashes, BLOCKHASH), overrides, traceTransfers, full transactions, geth's
 * error codes, determinism, and the chain left as it was.
 */
import { JsonRpcProvider } from 'ethers';
import { createPublicClient, http, parseEther, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call, result } from '../../../support/http.js';
import { ACCOUNT0, ACCOUNT1, readSurfaceSeed, UNLIMITED } from '../../methods/seed.js';

const SENDER = '0x00000000000000000000000000000000000000d1';
const RECIPIENT = '0x00000000000000000000000000000000000000d2';
/** Returns BLOCKHASH(NUMBER - 1) and NUMBER. */
const PREV_HASH = '0x600143034060005243602052604060' + '00f3';
const CONTRACT = '0x00000000000000000000000000000000000000c1';
/** Reverts with Error("no"). */
const REVERTS =
  '0x7f08c379a000000000000000000000000000000000000000000000000000000000600052602060045260026024527f6e6f000000000000000000000000000000000000000000000000000000000000604452606460' +
  '00fd';
/** Forwards its value to RECIPIENT with CALL, then emits LOG0 of nothing. */
const FORWARD = '0x600060006000600034' + '73' + RECIPIENT.slice(2) + '5af150600060' + '00a0' + '00';

let gw: Gateway;
let url: string;
const rpc = (method: string, params: unknown[]) => result(url, method, params);
const rpcError = async (method: string, params: unknown[]) => (await call(url, method, params)).error;
const simulate = (payload: unknown, block: unknown = 'latest') => rpc('eth_simulateV1', [payload, block]);

beforeAll(async () => {
  gw = await start({ port: 0, chains: [readSurfaceSeed()], keys: UNLIMITED });
  url = gw.url('dev');
});
afterAll(() => gw?.stop());

describe('eth_simulateV1', () => {
  it('chains blocks: state, numbers, times, parent hashes and BLOCKHASH follow; the chain stays as it was', async () => {
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    const balance0 = await rpc('eth_getBalance', [ACCOUNT0, 'latest']);
    const blocks = await simulate({
      blockStateCalls: [
        { stateOverrides: { [SENDER]: { balance: '0xde0b6b3a7640000' } }, calls: [{ from: SENDER, to: RECIPIENT, value: '0x1000' }] },
        { calls: [{ from: RECIPIENT, to: ACCOUNT1, value: '0x800' }] },
        { stateOverrides: { [CONTRACT]: { code: PREV_HASH } }, calls: [{ from: ACCOUNT0, to: CONTRACT }] },
      ],
    });
    expect(blocks).toHaveLength(3);
    blocks.forEach((b: any, i: number) => {
      expect(BigInt(b.number)).toBe(BigInt(head.number) + BigInt(i + 1));
      expect(BigInt(b.timestamp)).toBe(BigInt(head.timestamp) + 12n * BigInt(i + 1));
      expect(b.parentHash).toBe(i === 0 ? head.hash : blocks[i - 1].hash);
      expect(b.calls.every((c: any) => c.status === '0x1')).toBe(true);
      expect(b.totalDifficulty).toBeUndefined();
    });
    // The second block spends what the first received.
    expect(blocks[1].calls[0].gasUsed).toBe('0x5208');
    // BLOCKHASH(number - 1) in the third block is the second simulated block's hash.
    expect(blocks[2].calls[0].returnData).toBe(blocks[1].hash + BigInt(blocks[2].number).toString(16).padStart(64, '0'));
    // Nothing of it reached the chain.
    const after = await rpc('eth_getBlockByNumber', ['latest', false]);
    expect(after.hash).toBe(head.hash);
    expect(after.stateRoot).toBe(head.stateRoot);
    expect(await rpc('eth_getBalance', [RECIPIENT, 'latest'])).toBe('0x0');
    expect(await rpc('eth_getBalance', [ACCOUNT0, 'latest'])).toBe(balance0);
    expect(await rpc('eth_getCode', [CONTRACT, 'latest'])).toBe('0x');
  });

  it('is deterministic: the same request answers the same hashes', async () => {
    const payload = { blockStateCalls: [{ calls: [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1' }] }, { calls: [] }] };
    expect(await simulate(payload)).toEqual(await simulate(payload));
  });

  it('answers a revert in the call result (code 3, data) and drops its logs; traceTransfers logs ETH transfers', async () => {
    const [block] = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [CONTRACT]: { code: REVERTS }, '0x00000000000000000000000000000000000000c3': { code: FORWARD } },
          calls: [
            { from: ACCOUNT0, to: CONTRACT },
            { from: ACCOUNT0, to: '0x00000000000000000000000000000000000000c3', value: '0x64' },
          ],
        },
      ],
      traceTransfers: true,
    });
    expect(block.calls[0]).toMatchObject({ status: '0x0', returnData: '0x', logs: [], error: { code: 3, message: 'execution reverted: no' } });
    expect(block.calls[0].error.data).toMatch(/^0x08c379a0/);
    const logs = block.calls[1].logs;
    const pad = (a: string) => '0x' + a.slice(2).padStart(64, '0');
    expect(logs.map((l: any) => [l.address, l.topics.slice(1), BigInt(l.data === '0x' ? 0 : l.data)])).toEqual([
      ['0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', [pad(ACCOUNT0), pad('0x00000000000000000000000000000000000000c3')], 100n],
      ['0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', [pad('0x00000000000000000000000000000000000000c3'), pad(RECIPIENT)], 100n],
      ['0x00000000000000000000000000000000000000c3', [], 0n],
    ]);
    expect(logs.map((l: any) => l.logIndex)).toEqual(['0x0', '0x1', '0x2']);
    expect(logs.every((l: any) => l.blockHash === block.hash && l.transactionHash === block.transactions[1])).toBe(true);
  });

  it('returnFullTransactions gives transaction objects with their sender', async () => {
    const [block] = await simulate({ blockStateCalls: [{ calls: [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1' }] }], returnFullTransactions: true });
    expect(block.transactions[0]).toMatchObject({
      from: ACCOUNT0,
      to: ACCOUNT1,
      value: '0x1',
      type: '0x2',
      blockHash: block.hash,
      v: '0x0',
      r: '0x0',
      s: '0x0',
    });
  });

  it('a looping call runs out of its gas in the result; the gateway answers meanwhile', async () => {
    const loop = { [CONTRACT]: { code: '0x5b600056' } };
    const pending = simulate({ blockStateCalls: [{ stateOverrides: loop, calls: [{ from: ACCOUNT0, to: CONTRACT, gas: '0x1000000' }] }] });
    // The simulation yields to the event loop (the EVM clock): another request is answered before it ends.
    expect(await rpc('eth_blockNumber', [])).toMatch(/^0x/);
    const [block] = await pending;
    expect(block.calls[0]).toMatchObject({ status: '0x0', gasUsed: '0x1000000', error: { code: -32015, message: 'out of gas' } });
  });

  it("answers geth's error codes", async () => {
    const one = (calls: unknown[], extra: object = {}) => rpcError('eth_simulateV1', [{ blockStateCalls: [{ calls }], ...extra }, 'latest']);
    expect(await rpcError('eth_simulateV1', [{ blockStateCalls: [] }, 'latest'])).toEqual({ code: -32602, message: 'empty input' });
    expect((await rpcError('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: '0x1' } }] }, 'latest'])).code).toBe(-38020);
    expect((await rpcError('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { time: '0x1' } }] }, 'latest'])).code).toBe(-38021);
    expect(await rpcError('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: '0xffff' } }] }, 'latest'])).toEqual({
      code: -38026,
      message: 'too many blocks',
    });
    expect((await one([{ from: ACCOUNT0, to: ACCOUNT1, nonce: '0x0' }], { validation: true })).code).toBe(-38010);
    expect((await one([{ from: ACCOUNT0, to: ACCOUNT1, nonce: '0x999' }], { validation: true })).code).toBe(-38011);
    expect(await one([{ from: SENDER, to: ACCOUNT1, value: '0x1' }])).toEqual({
      code: -38014,
      message: 'err: insufficient funds for gas * price + value: address 0x00000000000000000000000000000000000000D1 have 0 want 1 (supplied gas 30000000)',
    });
    expect(await one([{ from: ACCOUNT0, to: ACCOUNT1, gas: '0x1' }])).toEqual({
      code: -38013,
      message: 'err: intrinsic gas too low: have 1, want 21000 (supplied gas 1)',
    });
    expect((await one([{ from: ACCOUNT0, to: ACCOUNT1, gas: '0xffffffffffff' }])).code).toBe(-38015);
    expect((await rpcError('eth_simulateV1', [{ blockStateCalls: [{}] }, '0xffffff'])).message).toBe('header not found');
    expect((await rpcError('eth_simulateV1', [{ blockStateCalls: 'x' }, 'latest'])).code).toBe(-32602);
  });
});

describe('bad input', () => {
  it.each([
    ['payload type', ['x', 'latest']],
    ['calls type', [{ blockStateCalls: [{ calls: 5 }] }, 'latest']],
    ['call member', [{ blockStateCalls: [{ calls: [{ to: '0x12' }] }] }, 'latest']],
    ['override member', [{ blockStateCalls: [{ stateOverrides: { [CONTRACT]: { nonce: 'x' } } }] }, 'latest']],
    ['override address', [{ blockStateCalls: [{ stateOverrides: { '0x12': {} } }] }, 'latest']],
    ['block override', [{ blockStateCalls: [{ blockOverrides: { number: 12 } }] }, 'latest']],
    ['flag', [{ blockStateCalls: [{}], validation: 'yes' }, 'latest']],
    ['block', [{ blockStateCalls: [{}] }, 'newest']],
  ])('%s -> -32602 naming it', async (_name, params) => {
    const err = await rpcError('eth_simulateV1', params as unknown[]);
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/^invalid argument [01]: /);
  });

  it('impossible requests answer errors, never -32603, and leave the chain as it was', async () => {
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    const cases: unknown[] = [
      { blockStateCalls: [{ stateOverrides: { [CONTRACT]: { state: {}, stateDiff: {} } } }] },
      { blockStateCalls: [{ calls: [{ from: ACCOUNT0, to: ACCOUNT1, gasPrice: '0x1', maxFeePerGas: '0x1' }] }] },
      { blockStateCalls: [{ calls: [{ from: ACCOUNT0, to: ACCOUNT1, chainId: '0x1' }] }] },
      { blockStateCalls: [{ calls: [{ from: ACCOUNT0, data: '0x' + '00'.repeat(50_000) }] }] },
      {
        blockStateCalls: [
          { blockOverrides: { withdrawals: [{ index: '0x0', validatorIndex: '0x1', address: SENDER, amount: '0x5' }], beaconRoot: '0x' + '11'.repeat(32) } },
        ],
      },
    ];
    for (const payload of cases) {
      const res = await call(url, 'eth_simulateV1', [payload, 'latest']);
      expect(res.error?.code, JSON.stringify(res.error)).not.toBe(-32603);
    }
    expect((await rpc('eth_getBlockByNumber', ['latest', false])).hash).toBe(head.hash);
  });
});

describe('unchanged real clients', () => {
  it('viem simulateBlocks and simulateCalls', async () => {
    const client = createPublicClient({ transport: http(url) }) as PublicClient;
    const head = await client.getBlockNumber();
    const blocks = await client.simulateBlocks({
      blocks: [
        { stateOverrides: [{ address: SENDER, balance: parseEther('1') }], calls: [{ account: SENDER, to: RECIPIENT, value: 5n }] },
        { blockOverrides: { number: head + 2n, time: 4_000_000_000n }, calls: [{ account: RECIPIENT, to: ACCOUNT1, value: 2n }] },
      ],
    });
    expect(blocks.map((b) => b.number)).toEqual([head + 1n, head + 2n]);
    expect(blocks[1]!.timestamp).toBe(4_000_000_000n);
    expect(blocks[1]!.calls[0]!.status).toBe('success');
    const { results } = await client.simulateCalls({
      account: ACCOUNT0,
      calls: [
        { to: ACCOUNT1, value: 1n },
        { to: RECIPIENT, value: 2n },
      ],
    });
    expect(results.map((r) => r.status)).toEqual(['success', 'success']);
    expect(results[0]!.gasUsed).toBe(21000n);
  });

  it('ethers provider.send', async () => {
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true });
    try {
      const blocks = await provider.send('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1' }] }] }, 'latest']);
      expect(blocks[0].calls[0]).toEqual({ returnData: '0x', logs: [], gasUsed: '0x5208', maxUsedGas: '0x5208', status: '0x1' });
    } finally {
      provider.destroy();
    }
  });
});
