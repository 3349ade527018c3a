/**
 * The rollup_ methods over HTTP: every method with named and positional params,
 * every error, sequential fee estimates and transaction hashes recomputed with starknet.js.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../src/index.js';
import { call, WsClient } from '../support/http.js';
import { ALICE, BOB, CAROL, COUNTER, GENESIS_TS, START_MS, increase, testSeed, UNLIMITED_KEYS } from './fixture.js';
import { hex, invokeV1, invokeV3, starknetJsHash } from './txs.js';

let gw: Gateway;
let url: string;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock(START_MS);
  gw = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [testSeed()] });
  url = gw.url('rollup-test');
});
afterAll(() => gw.stop());

/** Calls `rollup_<m>` with named and positional params; both must agree (`starknet_` has the spec's shapes: test/rollup/starknet-*.test.ts). */
async function both(method: string, named: Record<string, unknown>, positional: unknown[]): Promise<any> {
  const answers = await Promise.all([call(url, `rollup_${method}`, named), call(url, `rollup_${method}`, positional)]);
  for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
  return answers[0];
}

describe('rollup_getBlockWithTxHashes', () => {
  it('answers a block by number, hash and tag, named and positional', async () => {
    const byNumber = await both('getBlockWithTxHashes', { block_id: { block_number: 0 } }, [{ block_number: 0 }]);
    expect(byNumber.result).toEqual({
      status: 'ACCEPTED_ON_L1',
      block_hash: expect.stringMatching(/^0x[1-9a-f][0-9a-f]*$/),
      parent_hash: '0x0',
      block_number: 0,
      new_root: expect.stringMatching(/^0x[1-9a-f][0-9a-f]*$/),
      timestamp: GENESIS_TS,
      sequencer_address: expect.any(String),
      l1_gas_price: { price_in_fri: hex(50_000n * 10n ** 9n), price_in_wei: hex(30n * 10n ** 9n) },
      starknet_version: '0.13.4',
      transactions: [],
    });
    const byHash = await both('getBlockWithTxHashes', { block_id: { block_hash: byNumber.result.block_hash } }, [{ block_hash: byNumber.result.block_hash }]);
    expect(byHash.result).toEqual(byNumber.result);
    // leading zeros in a felt are accepted
    const padded = '0x' + byNumber.result.block_hash.slice(2).padStart(64, '0');
    expect((await call(url, 'rollup_getBlockWithTxHashes', { block_id: { block_hash: padded } })).result).toEqual(byNumber.result);
    expect((await both('getBlockWithTxHashes', { block_id: 'latest' }, ['latest'])).result.block_number).toBe(0);
    // nothing pending: pending answers as latest
    expect((await both('getBlockWithTxHashes', { block_id: 'pending' }, ['pending'])).result).toEqual(byNumber.result);
  });

  it('answers null for a block that does not exist', async () => {
    expect(await both('getBlockWithTxHashes', { block_id: { block_number: 99 } }, [{ block_number: 99 }])).toMatchObject({ result: null });
    expect((await call(url, 'rollup_getBlockWithTxHashes', { block_id: { block_hash: '0x1234' } })).result).toBeNull();
  });

  it('names the bad parameter', async () => {
    const cases: [unknown, RegExp][] = [
      [{ block_id: 'earliest' }, /invalid argument "block_id": unknown block tag "earliest"/],
      [{ block_id: { block_number: '0x1' } }, /"block_id": "block_number": expected a non-negative JSON integer/],
      [{ block_id: { block_number: 1, block_hash: '0x1' } }, /"block_id": a block id object has exactly one member/],
      [{ block_id: { block_hash: '0xzz' } }, /"block_id": "block_hash": not a felt/],
      [{ block_id: { block_hash: '0x' + '8'.repeat(63) } }, /"block_id": "block_hash": not a felt: at least the field prime/],
      [{}, /missing value for required argument "block_id"/],
      [{ block_id: 'latest', extra: 1 }, /unknown parameter "extra"/],
      [[7], /invalid argument 0: expected a block id/],
    ];
    for (const [params, message] of cases) {
      const r = await call(url, 'starknet_getBlockWithTxHashes', params);
      expect(r.error, JSON.stringify(params)).toMatchObject({ code: -32602, message: expect.stringMatching(message) });
    }
  });
});

describe('rollup_addInvokeTransaction, rollup_getTransactionReceipt and devnet control', () => {
  let v1Hash: string;
  let v3Hash: string;

  it('submits v1 and v3 transactions whose hashes starknet.js recomputes', async () => {
    const t1 = invokeV1(ALICE, increase(1), 0);
    const outcome = {
      events: [{ keys: ['0x1', '0x2'], data: ['0x3'] }],
      messages_sent: [{ to_address: '0xae0ee0a63a2ce6baeeffe56e7714fb4efe48d419', payload: ['0x5'] }],
      storage_writes: [{ contract_address: COUNTER, key: '0x7', value: '0x2' }],
    };
    const r1 = await call(url, 'rollup_addInvokeTransaction', { invoke_transaction: t1, outcome });
    expect(r1.result).toEqual({ transaction_hash: starknetJsHash(t1) });
    v1Hash = r1.result.transaction_hash;
    const t3 = invokeV3(BOB, increase(2), 0);
    const r3 = await call(url, 'starknet_addInvokeTransaction', [t3]);
    expect(r3.result).toEqual({ transaction_hash: starknetJsHash(t3) });
    v3Hash = r3.result.transaction_hash;
  });

  it('shows them in the pending block, without receipts until the block is sealed', async () => {
    const pending = await both('getBlockWithTxHashes', { block_id: 'pending' }, ['pending']);
    expect(pending.result).toMatchObject({ status: 'PENDING', transactions: [v1Hash, v3Hash] });
    expect(Object.keys(pending.result)).not.toContain('block_hash');
    expect(Object.keys(pending.result)).not.toContain('block_number');
    expect(Object.keys(pending.result)).not.toContain('new_root');
    expect((await both('getTransactionReceipt', { transaction_hash: v1Hash }, [v1Hash])).result).toBeNull();
  });

  it('devnet_createBlock seals them; receipts carry fee, status, events and messages', async () => {
    clock.advance(30_000);
    const created = await call(url, 'devnet_createBlock', {});
    const block = (await both('getBlockWithTxHashes', { block_id: 'latest' }, ['latest'])).result;
    expect(created.result).toEqual({ block_hash: block.block_hash });
    expect(block).toMatchObject({ status: 'ACCEPTED_ON_L2', block_number: 1, timestamp: GENESIS_TS + 30, transactions: [v1Hash, v3Hash] });
    const receipt = (await both('getTransactionReceipt', { transaction_hash: v1Hash }, [v1Hash])).result;
    expect(receipt).toEqual({
      transaction_hash: v1Hash,
      actual_fee: expect.stringMatching(/^0x[1-9a-f]/),
      status: 'ACCEPTED_ON_L2',
      block_hash: block.block_hash,
      block_number: 1,
      messages_sent: [{ from_address: ALICE.address, to_address: '0xae0ee0a63a2ce6baeeffe56e7714fb4efe48d419', payload: ['0x5'] }],
      events: [{ from_address: ALICE.address, keys: ['0x1', '0x2'], data: ['0x3'] }],
    });
    const derived = (await call(url, 'rollup_getTransactionReceipt', [v3Hash])).result;
    expect(derived.events).toEqual([{ from_address: COUNTER, keys: [expect.any(String)], data: ['0x2'] }]);
    expect((await call(url, 'rollup_getTransactionReceipt', { transaction_hash: '0xabc' })).result).toBeNull();
    expect((await call(url, 'rollup_getTransactionReceipt', { transaction_hash: 5 })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('"transaction_hash"'),
    });
  });

  it('devnet_acceptOnL1 and devnet_rejectBlock move statuses forward only', async () => {
    await call(url, 'devnet_createBlock', []);
    const accepted = await call(url, 'devnet_acceptOnL1', { block_id: { block_number: 1 } });
    expect(accepted.result.accepted).toHaveLength(1);
    expect((await call(url, 'rollup_getTransactionReceipt', [v1Hash])).result.status).toBe('ACCEPTED_ON_L1');
    const tooFar = await call(url, 'devnet_rejectBlock', { block_id: { block_number: 1 } });
    expect(tooFar.error).toMatchObject({ code: -32000, message: expect.stringContaining('is ACCEPTED_ON_L1; only PENDING or ACCEPTED_ON_L2') });
    const t = invokeV1(CAROL, increase(3), 0);
    const { result } = await call(url, 'starknet_addInvokeTransaction', { invoke_transaction: t });
    const rejected = await call(url, 'devnet_rejectBlock', { block_id: { block_number: 2 } });
    expect(rejected.result.rejected).toHaveLength(2);
    const receipt = (await call(url, 'rollup_getTransactionReceipt', [result.transaction_hash])).result;
    expect(receipt).toMatchObject({ status: 'REJECTED', block_number: 3 });
    expect((await call(url, 'rollup_getBlockWithTxHashes', [{ block_hash: rejected.result.rejected[0] }])).result.status).toBe('REJECTED');
    expect((await call(url, 'rollup_blockNumber', {})).result).toBe(1);
    expect((await call(url, 'devnet_acceptOnL1', [{ block_hash: rejected.result.rejected[0] }])).error.message).toMatch(/REJECTED; statuses only move forward/);
    expect((await call(url, 'devnet_rejectBlock', {})).error).toMatchObject({ code: -32602, message: expect.stringContaining('"block_id"') });
    expect((await call(url, 'devnet_acceptOnL1', { block_id: { block_number: 50 } })).error).toEqual({ code: 24, message: 'Block not found' });
  });

  it('devnet_setTime and devnet_increaseTime set block timestamps', async () => {
    const set = await call(url, 'devnet_setTime', { time: GENESIS_TS + 10_000, generate_block: true });
    expect(set.result).toEqual({ block_timestamp: GENESIS_TS + 10_000, block_hash: expect.any(String) });
    expect((await call(url, 'rollup_getBlockWithTxHashes', ['latest'])).result).toMatchObject({
      block_hash: set.result.block_hash,
      timestamp: GENESIS_TS + 10_000,
    });
    const inc = await call(url, 'devnet_increaseTime', [3600]);
    expect(inc.result).toEqual({ timestamp_increased_by: 3600, block_hash: expect.any(String) });
    expect((await call(url, 'rollup_getBlockWithTxHashes', ['latest'])).result.timestamp).toBe(GENESIS_TS + 13_600);
    expect((await call(url, 'devnet_setTime', { time: GENESIS_TS })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/before the latest block's timestamp/),
    });
    expect((await call(url, 'devnet_increaseTime', { time: -1 })).error).toMatchObject({ code: -32602, message: expect.stringContaining('"time"') });
  });

  it('refuses bad submissions with Starknet codes, changing nothing', async () => {
    const before = await call(url, 'rollup_getBlockWithTxHashes', ['pending']);
    const good = invokeV1(ALICE, increase(1), 1);
    const cases: [unknown, number, string | RegExp][] = [
      [invokeV1(ALICE, increase(1), 5), 52, 'Invalid transaction nonce'],
      [{ ...good, signature: ['0x1', '0x2'] }, 55, 'Account validation failed'],
      [invokeV1(ALICE, increase(1), 1, { maxFee: 1n }), 53, "The transaction's resources don't cover validation or the minimal transaction fee"],
      [invokeV1(ALICE, increase(1), 1, { query: true }), 61, 'The transaction version is not supported'],
      [invokeV1({ address: '0x777', privateKey: '0x5' }, increase(1), 0), 20, 'Contract not found'],
      [{ ...good, version: '0x2' }, -32602, /"invoke_transaction": "version": want 0x1, 0x3/],
      [{ ...good, max_fee: undefined }, -32602, /"invoke_transaction": "max_fee"/],
      [{ ...good, calldata: ['0x1', 'zz'] }, -32602, /"invoke_transaction": "calldata": "1": not a felt/],
      [{ ...invokeV3(BOB, increase(1), 0), tip: '0x10000000000000000' }, -32602, /"invoke_transaction": "tip": more than 64 bits/],
    ];
    for (const [tx, code, message] of cases) {
      const r = await call(url, 'rollup_addInvokeTransaction', { invoke_transaction: tx });
      expect(r.error, String(code)).toMatchObject({ code, message: typeof message === 'string' ? message : expect.stringMatching(message) });
    }
    const nonce = await call(url, 'rollup_addInvokeTransaction', [invokeV1(ALICE, increase(1), 5)]);
    expect(nonce.error.data).toBe('Invalid transaction nonce. Expected: 0x1, got: 0x5');
    expect(await call(url, 'rollup_getBlockWithTxHashes', ['pending'])).toEqual(before);
  });
});

describe('rollup_estimateFee', () => {
  it('estimates INVOKE v1 (plain and query version) and v3: overall_fee = gas_consumed x gas_price', async () => {
    const nonce = 1; // Alice's transaction of block 1 stayed; her block 2 one was rejected
    for (const tx of [invokeV1(ALICE, increase(4), nonce), invokeV1(ALICE, increase(4), nonce, { query: true, maxFee: 0n })]) {
      const r = await both('estimateFee', { request: [tx], block_id: 'latest' }, [[tx], 'latest']);
      const [e] = r.result;
      expect(Object.keys(e)).toEqual(['gas_consumed', 'gas_price', 'overall_fee']);
      expect(e.gas_price).toBe('0x1e');
      expect(BigInt(e.overall_fee)).toBe(BigInt(e.gas_consumed) * BigInt(e.gas_price));
    }
    const v3 = invokeV3(BOB, increase(4), 1, { query: true });
    const [e3] = (await call(url, 'rollup_estimateFee', { request: [v3], block_id: 'pending' })).result;
    expect(e3.gas_price).toBe(hex(50_000n));
  });

  it('simulates each transaction on the state the previous ones left', async () => {
    const txs = [0, 1, 2].map((i) => invokeV1(CAROL, increase(i + 1), i, { query: true }));
    const r = await both('estimateFee', { request: txs, block_id: 'latest' }, [txs, 'latest']);
    expect(r.result).toHaveLength(3);
    const skipped = await call(url, 'rollup_estimateFee', { request: [txs[0], txs[2]], block_id: 'latest' });
    expect(skipped.error).toEqual({
      code: 40,
      message: 'Contract error',
      data: { transaction_index: 1, revert_error: 'Invalid transaction nonce. Expected: 0x1, got: 0x2' },
    });
    // estimates change nothing
    expect((await call(url, 'rollup_estimateFee', [[txs[0]], 'latest'])).result).toEqual([r.result[0]]);
  });

  it('checks the signature unless SKIP_VALIDATE', async () => {
    const tx = { ...invokeV1(CAROL, increase(1), 0, { query: true }), signature: [] };
    const r = await call(url, 'rollup_estimateFee', { request: [tx], block_id: 'latest' });
    expect(r.error).toMatchObject({ code: 40, data: { revert_error: expect.stringMatching(/^Account validation failed/) } });
    const skipped = await call(url, 'rollup_estimateFee', { request: [tx], block_id: 'latest', simulation_flags: ['SKIP_VALIDATE'] });
    expect(skipped.result).toHaveLength(1);
  });

  it('answers Starknet errors: 24 block not found, 20 contract not found, 40 contract error', async () => {
    const tx = invokeV1(CAROL, increase(1), 0, { query: true });
    expect((await both('estimateFee', { request: [tx], block_id: { block_number: 999 } }, [[tx], { block_number: 999 }])).error).toEqual({
      code: 24,
      message: 'Block not found',
    });
    const stranger = invokeV1({ address: '0x4242', privateKey: '0x9' }, increase(1), 0, { query: true });
    expect((await call(url, 'rollup_estimateFee', [[stranger], 'latest'])).error).toMatchObject({ code: 20, message: 'Contract not found' });
    const wrongNonce = invokeV1(CAROL, increase(1), 5, { query: true });
    expect((await call(url, 'rollup_estimateFee', [[wrongNonce], 'latest'])).error).toEqual({
      code: 40,
      message: 'Contract error',
      data: { transaction_index: 0, revert_error: 'Invalid transaction nonce. Expected: 0x0, got: 0x5' },
    });
    const toNowhere = invokeV1(CAROL, [{ to: '0x31337', entrypoint: 'f', calldata: [] }], 0, { query: true });
    expect((await call(url, 'rollup_estimateFee', [[toNowhere], 'latest'])).error.data.revert_error).toBe(
      'Requested contract address 0x31337 is not deployed.',
    );
  });

  it('names bad parameters', async () => {
    const tx = invokeV1(CAROL, increase(1), 0, { query: true });
    const cases: [unknown, RegExp][] = [
      [{ request: tx, block_id: 'latest' }, /"request": expected an array of transactions/],
      [{ request: [{ ...tx, type: 'DECLARE' }], block_id: 'latest' }, /"request": "0": "type": want "INVOKE"/],
      [{ request: [{ ...tx, nonce: 3 }], block_id: 'latest' }, /"request": "0": "nonce"/],
      [{ request: [{ ...tx, surprise: '0x1' }], block_id: 'latest' }, /"request": "0": .*surprise/],
      [{ request: [tx] }, /missing value for required argument "block_id"/],
      [{ request: [tx], block_id: 'latest', simulation_flags: ['FAST'] }, /"simulation_flags": "0": unknown simulation flag/],
      [{ request: Array(101).fill(tx), block_id: 'latest' }, /"request": at most 100 transactions per estimate, got 101/],
      [{ request: [{ ...tx, calldata: Array(4001).fill('0x1') }], block_id: 'latest' }, /"request": "0": "calldata": at most 4000 felts/],
    ];
    for (const [params, message] of cases) {
      const r = await call(url, 'rollup_estimateFee', params);
      expect(r.error, JSON.stringify(params).slice(0, 80)).toMatchObject({ code: -32602, message: expect.stringMatching(message) });
    }
  });
});

describe('rollup_chainId and rollup_blockNumber', () => {
  it('answer named and positional', async () => {
    expect((await both('chainId', {}, [])).result).toBe('0x534e5f4d41494e');
    expect(typeof (await both('blockNumber', {}, [])).result).toBe('number');
  });
});

describe('over WebSocket', () => {
  it('answers the same as over HTTP', async () => {
    const ws = await WsClient.open(gw.wsUrl('rollup-test'));
    try {
      const params = { block_id: { block_number: 1 } };
      const viaWs = await ws.request({ jsonrpc: '2.0', id: 7, method: 'starknet_getBlockWithTxHashes', params });
      expect(viaWs).toEqual({ ...(await call(url, 'starknet_getBlockWithTxHashes', params, 7)) });
      expect(viaWs.result.block_number).toBe(1);
    } finally {
      ws.close();
    }
  });
});
