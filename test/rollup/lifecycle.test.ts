/**
 * The status lifecycle through the gateway: interval production and time-based L1 acceptance driven
 * by a manual clock, the block-production timer (fake timers) and close(), L1 acceptance after
 * blocks of a real eth network, and control through the gateway handle.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { decodeRollupInvoke, ManualClock, start, type Gateway } from '../../src/index.js';
import { createNetwork, type Network } from '../../src/network.js';
import { createRollupNetwork } from '../../src/rollup/network.js';
import { parseSeed } from '../../src/seed/load.js';
import { RollupSeed } from '../../src/seed/rollup.js';
import { call } from '../support/http.js';
import { ALICE, BOB, GENESIS_TS, START_MS, UNLIMITED_KEYS, increase, testSeed } from './fixture.js';
import { invokeV1, starknetJsHash } from './txs.js';

const receiptStatus = async (url: string, hash: string) => (await call(url, 'rollup_getTransactionReceipt', { transaction_hash: hash })).result?.status ?? null;

describe('interval production with a manual clock, over HTTP', () => {
  let gw: Gateway;
  let url: string;
  const clock = new ManualClock(START_MS);

  beforeAll(async () => {
    gw = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [testSeed({ blockTimeMs: 2_000, l1Acceptance: { kind: 'time', delayMs: 6_000 } })] });
    url = gw.url('rollup-test');
  });
  afterAll(() => gw.stop());

  it('moves a transaction PENDING -> ACCEPTED_ON_L2 -> ACCEPTED_ON_L1 as the clock advances', async () => {
    const tx = invokeV1(ALICE, increase(1), 0);
    const { result } = await call(url, 'rollup_addInvokeTransaction', [tx]);
    const hash = result.transaction_hash;
    expect(hash).toBe(starknetJsHash(tx));
    expect((await call(url, 'rollup_getBlockWithTxHashes', ['pending'])).result).toMatchObject({ status: 'PENDING', transactions: [hash] });
    expect(await receiptStatus(url, hash)).toBeNull();

    clock.advance(2_000);
    expect(await receiptStatus(url, hash)).toBe('ACCEPTED_ON_L2');
    const block = (await call(url, 'rollup_getBlockWithTxHashes', [{ block_number: 1 }])).result;
    expect(block).toMatchObject({ status: 'ACCEPTED_ON_L2', timestamp: GENESIS_TS + 2, transactions: [hash] });

    clock.advance(5_999);
    expect(await receiptStatus(url, hash)).toBe('ACCEPTED_ON_L2');
    clock.advance(1);
    expect(await receiptStatus(url, hash)).toBe('ACCEPTED_ON_L1');
    // empty blocks were sealed at +4 s, +6 s and +8 s
    expect((await call(url, 'rollup_blockNumber', [])).result).toBe(4);
    expect((await call(url, 'rollup_getBlockWithTxHashes', [{ block_number: 4 }])).result).toMatchObject({
      status: 'ACCEPTED_ON_L2',
      timestamp: GENESIS_TS + 8,
      transactions: [],
    });
  });

  it('pending answers as latest between intervals when nothing waits', async () => {
    const latest = await call(url, 'rollup_getBlockWithTxHashes', ['latest']);
    expect(await call(url, 'rollup_getBlockWithTxHashes', ['pending'])).toEqual(latest);
  });
});

describe('the block-production timer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('seals blocks on its own at each interval and stops on close()', async () => {
    vi.useFakeTimers({ now: START_MS });
    const network = createRollupNetwork(RollupSeed.parse(testSeed({ blockTimeMs: 1_000 })), { clock: systemClock });
    const chain = network.engine;
    expect(chain.length).toBe(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(chain.length).toBe(4); // `length` does not sync: the timer sealed these
    await network.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(chain.length).toBe(4);
  });
});

describe('L1 acceptance after blocks of an eth network of the same gateway', () => {
  let l1: Network;
  let rollup: Network;
  const clock = new ManualClock(START_MS);

  beforeAll(async () => {
    l1 = await createNetwork(parseSeed({ name: 'l1', kind: 'eth', chainId: 1337 }, 'l1'), { clock });
    const l1BlockNumber = async (name: string) => {
      const r = name === 'l1' ? await l1.execute({ id: 1, method: 'eth_blockNumber', params: [] }) : undefined;
      return r !== undefined && 'result' in r ? BigInt(r.result as string) : undefined;
    };
    rollup = await createNetwork(parseSeed(testSeed({ l1Acceptance: { kind: 'blocks', network: 'l1', blocks: 2 } }), 'rollup'), { clock, l1BlockNumber });
  });
  afterAll(async () => {
    await Promise.all([l1.close(), rollup.close()]);
  });

  const status = async (n: number) =>
    ((await rollup.execute({ id: 1, method: 'rollup_getBlockWithTxHashes', params: [{ block_number: n }] })) as any).result.status;

  it('accepts a block once the L1 head is N blocks past the head it saw at sealing', async () => {
    await rollup.execute({ id: 1, method: 'devnet_createBlock', params: [] });
    expect(await status(1)).toBe('ACCEPTED_ON_L2');
    const eth = { mineBlock: () => l1.execute({ id: 1, method: 'evm_mine', params: [] }) };
    await eth.mineBlock();
    expect(await status(1)).toBe('ACCEPTED_ON_L2');
    await rollup.execute({ id: 1, method: 'devnet_createBlock', params: [] });
    await eth.mineBlock();
    expect(await status(1)).toBe('ACCEPTED_ON_L1');
    expect(await status(2)).toBe('ACCEPTED_ON_L2');
    await eth.mineBlock();
    expect(await status(2)).toBe('ACCEPTED_ON_L1');
  });

  it('start() refuses a rollup whose L1 network is not an eth network of the gateway', async () => {
    await expect(start({ port: 0, chains: [testSeed({ l1Acceptance: { kind: 'blocks', network: 'nowhere', blocks: 1 } })] })).rejects.toThrow(
      /l1Acceptance.network "nowhere" is not an eth network of this gateway/,
    );
  });
});

describe('control through the gateway handle', () => {
  let gw: Gateway;
  let url: string;
  const clock = new ManualClock(START_MS);

  beforeAll(async () => {
    gw = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [testSeed(), { name: 'l1', kind: 'eth', chainId: 1337 }] });
    url = gw.url('rollup-test');
  });
  afterAll(() => gw.stop());

  it('gw.rollup(name) gives the RollupChain: what it does shows over HTTP', async () => {
    const chain = gw.rollup('rollup-test');
    const hash = chain.addInvokeTransaction(decodeRollupInvoke(invokeV1(BOB, increase(2), 0)), { events: [{ fromAddress: 1n, keys: [2n], data: [] }] });
    chain.setTime(BigInt(GENESIS_TS + 500));
    const block = chain.createBlock();
    expect((await call(url, 'rollup_getBlockWithTxHashes', ['latest'])).result).toMatchObject({
      block_hash: '0x' + block.hash.toString(16),
      timestamp: GENESIS_TS + 500,
    });
    chain.acceptOnL1({ tag: 'latest' });
    expect((await call(url, 'rollup_getTransactionReceipt', ['0x' + hash.toString(16)])).result).toMatchObject({
      status: 'ACCEPTED_ON_L1',
      events: [{ from_address: '0x1', keys: ['0x2'], data: [] }],
    });
    chain.increaseTime(10n);
    chain.rejectBlock({ tag: 'latest' });
    expect((await call(url, 'rollup_blockNumber', [])).result).toBe(1);
    expect(() => gw.rollup('l1')).toThrow(/not a rollup network/);
    expect(() => gw.rollup('nope')).toThrow(/unknown network/);
  });
});
