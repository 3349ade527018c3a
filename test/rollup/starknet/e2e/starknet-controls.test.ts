/**
 * The rollup's test controls over HTTP (raw devnet_ requests, starknet-devnet's shapes) and what
 * starknet.js 7 reads after a revert: forgotten blocks and transactions, a reused block number.
 */
import { RpcProvider } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';
import { ALICE, BOB, COUNTER, DEV_ACCOUNTS, ETH_TOKEN, FRI_PRICE, START_MS, UNLIMITED_KEYS, WEI_PRICE, increase, testSeed } from '../../fixture.js';
import { STRK_TOKEN } from '../../make-starknet-seed.js';
import { hex, invokeV1, invokeV3, publicKeyOf, selector } from '../../txs.js';

let gw: Gateway;
let url: string;
let provider: RpcProvider;
const clock = new ManualClock(START_MS);
const E18 = 10n ** 18n;

beforeAll(async () => {
  const seed = testSeed({
    accounts: DEV_ACCOUNTS.map((a) => ({
      address: a.address,
      publicKey: publicKeyOf(a),
      privateKey: a.privateKey,
      classHash: '0x61dac032f228abef9c6626f995015233097ae253a7f72d68552db02f2971b8f',
      balance: hex(1000n * E18),
      strkBalance: hex(2000n * E18),
    })),
    contracts: [
      { address: ETH_TOKEN, classHash: '0x1' },
      { address: STRK_TOKEN, classHash: '0x1' },
      { address: COUNTER, classHash: '0x2' },
    ],
  });
  gw = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [seed] });
  url = gw.url('rollup-test');
  provider = await RpcProvider.create({ nodeUrl: url });
});
afterAll(() => gw.stop());

const rpc = (method: string, params?: unknown) => call(url, method, params);
const ok = async (method: string, params?: unknown) => {
  const r = await rpc(method, params);
  if (r.error !== undefined) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
  return r.result;
};
const strkOf = async (address: string, block: unknown = 'pending') =>
  BigInt(
    (
      await ok('starknet_call', {
        request: { contract_address: STRK_TOKEN, entry_point_selector: selector('balanceOf'), calldata: [address] },
        block_id: block,
      })
    )[0],
  );

describe('devnet_ accounts, balances and config', () => {
  it('devnet_getPredeployedAccounts (and devnet_getAccounts) list the keys, with balances when asked', async () => {
    const plain = await ok('devnet_getPredeployedAccounts');
    expect(plain).toHaveLength(3);
    expect(plain[0]).toEqual({
      initial_balance: (1000n * E18).toString(),
      address: ALICE.address,
      public_key: publicKeyOf(ALICE),
      private_key: ALICE.privateKey,
    });
    expect(await ok('devnet_getAccounts', {})).toEqual(plain);
    const rich = await ok('devnet_getPredeployedAccounts', { with_balance: true });
    expect(rich[1].balance).toEqual({ eth: { amount: (1000n * E18).toString(), unit: 'WEI' }, strk: { amount: (2000n * E18).toString(), unit: 'FRI' } });
  });

  it('devnet_getAccountBalance reads a balance at a block, FRI by default; unknown block 24, bad unit -32602', async () => {
    expect(await ok('devnet_getAccountBalance', { address: BOB.address })).toEqual({ amount: (2000n * E18).toString(), unit: 'FRI' });
    expect(await ok('devnet_getAccountBalance', { address: BOB.address, unit: 'WEI', block_id: { block_number: 0 } })).toEqual({
      amount: (1000n * E18).toString(),
      unit: 'WEI',
    });
    expect(await ok('devnet_getAccountBalance', { address: '0x1234' })).toEqual({ amount: '0', unit: 'FRI' });
    expect((await rpc('devnet_getAccountBalance', { address: BOB.address, block_id: { block_number: 99 } })).error).toEqual({
      code: 24,
      message: 'Block not found',
    });
    expect((await rpc('devnet_getAccountBalance', { address: BOB.address, unit: 'ETH' })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/"unit".*WEI.*FRI/),
    });
  });

  it('devnet_getConfig answers in starknet-devnet shape with the network values', async () => {
    const config = await ok('devnet_getConfig');
    expect(config).toMatchObject({
      seed: null,
      total_accounts: 3,
      account_contract_class_hash: '0x61dac032f228abef9c6626f995015233097ae253a7f72d68552db02f2971b8f',
      predeployed_accounts_initial_balance: (1000n * E18).toString(),
      gas_price_wei: Number(WEI_PRICE),
      gas_price_fri: Number(FRI_PRICE),
      chain_id: 'SN_MAIN',
      block_generation_on: 'demand',
      state_archive: 'full',
    });
  });
});

describe('devnet_mint', () => {
  it('mints by a transaction in the pending block: hash, receipt, Transfer event; latest sees it once sealed', async () => {
    const before = await strkOf(ALICE.address, 'latest');
    const minted = await ok('devnet_mint', { address: ALICE.address, amount: 1e21 });
    expect(minted).toEqual({ new_balance: (before + 10n ** 21n).toString(), unit: 'FRI', tx_hash: expect.stringMatching(/^0x[1-9a-f][0-9a-f]*$/) });
    expect(await strkOf(ALICE.address, 'pending')).toBe(before + 10n ** 21n);
    expect(await strkOf(ALICE.address, 'latest')).toBe(before);
    const tx: any = await provider.getTransactionByHash(minted.tx_hash);
    expect(tx).toMatchObject({ type: 'INVOKE', version: '0x3', sender_address: '0x1caf2df5ed5dde1ae3faef4acd72522ac3cb16e23f6dc4c7f9faed67124c511' });
    await ok('devnet_createBlock');
    expect(await strkOf(ALICE.address, 'latest')).toBe(before + 10n ** 21n);
    const receipt: any = await provider.getTransactionReceipt(minted.tx_hash);
    expect(receipt.isSuccess()).toBe(true);
    expect(receipt.events).toEqual([{ from_address: STRK_TOKEN, keys: [selector('Transfer'), '0x0', ALICE.address], data: ['0x3635c9adc5dea00000', '0x0'] }]);
    // WEI mints ETH; a fraction is cut off as starknet-devnet does; exact big amounts as strings
    expect((await ok('devnet_mint', { address: BOB.address, amount: 3.9, unit: 'WEI' })).new_balance).toBe((1000n * E18 + 3n).toString());
    expect((await ok('devnet_mint', { address: BOB.address, amount: '1000000000000000000001', unit: 'WEI' })).new_balance).toBe((2000n * E18 + 4n).toString());
  });

  it('refuses what it cannot do with a clear error and changes nothing', async () => {
    const pending = (await ok('starknet_getBlockWithTxHashes', { block_id: 'pending' })).transactions;
    expect((await rpc('devnet_mint', { address: '0x1234', amount: 1 })).error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/no contract at 0x1234/),
    });
    expect((await rpc('devnet_mint', { address: ALICE.address, amount: -1 })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/"amount"/),
    });
    expect((await rpc('devnet_mint', { address: ALICE.address, amount: hex(1n << 128n) })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/below 2\^128/),
    });
    expect((await rpc('devnet_mint', { address: ALICE.address })).error).toMatchObject({ code: -32602, message: expect.stringMatching(/"amount"/) });
    expect((await ok('starknet_getBlockWithTxHashes', { block_id: 'pending' })).transactions).toEqual(pending);
  });
});

describe('devnet_setGasPrice and devnet_abortBlocks', () => {
  it('sets the L1 gas price of the next blocks; generate_block seals now', async () => {
    const answer = await ok('devnet_setGasPrice', { gas_price_wei: Number(2n * WEI_PRICE), generate_block: true });
    expect(answer).toMatchObject({ gas_price_wei: Number(2n * WEI_PRICE), gas_price_fri: Number(FRI_PRICE) });
    expect(Object.keys(answer).sort()).toEqual([
      'data_gas_price_fri',
      'data_gas_price_wei',
      'gas_price_fri',
      'gas_price_wei',
      'l2_gas_price_fri',
      'l2_gas_price_wei',
    ]);
    const pending: any = await provider.getBlock('pending');
    expect(pending.l1_gas_price.price_in_wei).toBe(hex(2n * WEI_PRICE));
    expect((await rpc('devnet_setGasPrice', { l2_gas_price_fri: 12345 })).error).toMatchObject({ code: -32602, message: expect.stringMatching(/per network/) });
    await ok('devnet_setGasPrice', { gas_price_wei: Number(WEI_PRICE), generate_block: true });
  });

  it('devnet_abortBlocks rejects from starting_block_id on, newest first', async () => {
    const a = (await ok('devnet_createBlock')).block_hash;
    const b = (await ok('devnet_createBlock')).block_hash;
    const n = (await ok('starknet_getBlockWithTxHashes', { block_id: { block_hash: a } })).block_number;
    expect(await ok('devnet_abortBlocks', { starting_block_id: { block_number: n } })).toEqual({ aborted: [b, a] });
    expect(await provider.getBlockNumber()).toBe(n - 1);
    expect(((await provider.getBlock(a)) as any).status).toBe('REJECTED');
    expect((await rpc('devnet_abortBlocks', { starting_block_id: { block_number: 0 } })).error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/ACCEPTED_ON_L1|genesis/),
    });
  });
});

describe('devnet_snapshot / devnet_revert / devnet_restart', () => {
  it('revert forgets later blocks and transactions; starknet.js reads the new block at a reused number', async () => {
    const id = await ok('devnet_snapshot');
    expect(id).toMatch(/^0x[0-9a-f]+$/);
    const head = await provider.getBlockNumber();
    const nonce = BigInt(await provider.getNonceForAddress(ALICE.address, 'pending'));
    const sent = (await ok('starknet_addInvokeTransaction', { invoke_transaction: invokeV1(ALICE, increase(5), nonce) })).transaction_hash;
    const gone = (await ok('devnet_createBlock')).block_hash;
    await ok('devnet_acceptOnL1', { starting_block_id: 'latest' });
    await ok('devnet_mint', { address: BOB.address, amount: 77 });
    const later = await ok('devnet_snapshot');
    const events = async () =>
      (
        await ok('starknet_getEvents', { filter: { from_block: { block_number: head }, to_block: 'latest', address: COUNTER, keys: [], chunk_size: 100 } })
      ).events.map((e: any) => [e.transaction_hash, e.block_hash]);
    expect(await events()).toEqual([[sent, gone]]);

    expect(await ok('devnet_revert', { id })).toBe(true);
    expect(await provider.getBlockNumber()).toBe(head);
    expect((await rpc('starknet_getBlockWithTxHashes', { block_id: { block_hash: gone } })).error).toEqual({ code: 24, message: 'Block not found' });
    expect((await rpc('starknet_getTransactionReceipt', { transaction_hash: sent })).error).toMatchObject({ code: 29 });
    expect(await ok('rollup_getTransactionReceipt', { transaction_hash: sent })).toBeNull();
    expect(BigInt(await provider.getNonceForAddress(ALICE.address, 'pending'))).toBe(nonce);
    expect((await ok('starknet_getBlockWithTxHashes', { block_id: 'pending' })).transactions).toEqual([]);
    // the snapshot reverted to and the later one are gone; an unknown id answers false
    expect(await ok('devnet_revert', { id })).toBe(false);
    expect(await ok('devnet_revert', [later])).toBe(false);
    expect((await rpc('devnet_revert', { id: 'zero' })).error).toMatchObject({ code: -32602 });
    expect(await events()).toEqual([]);

    // the number comes back with another block, which starknet.js reads
    const other = invokeV3(ALICE, increase(6), nonce);
    const again = (await ok('starknet_addInvokeTransaction', { invoke_transaction: other })).transaction_hash;
    clock.advance(2_000);
    const fresh = (await ok('devnet_createBlock')).block_hash;
    expect(fresh).not.toBe(gone);
    const block: any = await provider.getBlockWithTxHashes(head + 1);
    expect(block).toMatchObject({ block_hash: fresh, block_number: head + 1, status: 'ACCEPTED_ON_L2', transactions: [again] });
    expect(((await provider.getTransactionReceipt(again)) as any).block_hash).toBe(fresh);
    expect((await ok('rollup_getBlockWithTxHashes', { block_id: { block_number: head + 1 } })).block_hash).toBe(fresh);
    expect(await events()).toEqual([[again, fresh]]);
  });

  it('revert restores the chain time devnet_setTime moved (which seals a block unless generate_block is false)', async () => {
    const id = await ok('devnet_snapshot');
    const head = await provider.getBlockNumber();
    const ts = (await ok('starknet_getBlockWithTxHashes', { block_id: 'pending' })).timestamp;
    expect(await ok('devnet_setTime', { time: ts + 100_000 })).toEqual({ block_timestamp: ts + 100_000, block_hash: expect.stringMatching(/^0x/) });
    expect(await provider.getBlockNumber()).toBe(head + 1);
    expect(await ok('devnet_setTime', { time: ts + 200_000, generate_block: false })).toEqual({ block_timestamp: ts + 200_000, block_hash: null });
    expect((await ok('starknet_getBlockWithTxHashes', { block_id: 'pending' })).timestamp).toBe(ts + 200_000);
    expect(await ok('devnet_revert', { id })).toBe(true);
    expect(await provider.getBlockNumber()).toBe(head);
    expect((await ok('starknet_getBlockWithTxHashes', { block_id: 'pending' })).timestamp).toBe(ts);
  });

  it('devnet_restart goes back to the seeded chain and answers {}', async () => {
    expect(await provider.getBlockNumber()).toBeGreaterThan(0);
    await ok('devnet_snapshot');
    expect(await ok('devnet_restart')).toEqual({});
    expect(await provider.getBlockNumber()).toBe(0);
    expect(await ok('devnet_getAccountBalance', { address: ALICE.address, block_id: 'pending' })).toEqual({ amount: (2000n * E18).toString(), unit: 'FRI' });
    expect(await ok('devnet_revert', { id: '0x0' })).toBe(false);
  });

  it('the gw.rollup() handle does the same', async () => {
    const net = gw.rollup('rollup-test');
    const id = net.snapshot();
    const { txHash, newBalance } = net.mint(BigInt(BOB.address), 5n, 'WEI');
    expect(newBalance).toBe(1000n * E18 + 5n);
    net.createBlock();
    expect(net.getBalance(BigInt(BOB.address), 'WEI')).toBe(newBalance);
    expect(net.revert(id)).toBe(true);
    expect(net.getBalance(BigInt(BOB.address), 'WEI', { tag: 'pending' })).toBe(1000n * E18);
    expect((await rpc('starknet_getTransactionByHash', { transaction_hash: hex(txHash) })).error).toMatchObject({ code: 29 });
    expect(net.predeployedAccounts()[0]).toEqual({
      address: BigInt(ALICE.address),
      publicKey: BigInt(publicKeyOf(ALICE)),
      privateKey: BigInt(ALICE.privateKey),
    });
    net.restart();
    expect(net.blockNumber()).toBe(0n);
  });
});

describe('devnet_ methods are dev methods', () => {
  it('a key with "devMethods": false and start({ devMethods: false }) meet them as unknown methods', async () => {
    const seed = testSeed();
    const own = await start({
      port: 0,
      clock,
      chains: [seed],
      keys: {
        keys: [
          { key: 'nodev', plan: 'growth', devMethods: false },
          { key: 'dev', plan: 'growth' },
        ],
      },
    });
    const off = await start({ port: 0, clock, chains: [seed], devMethods: false });
    try {
      for (const method of ['devnet_mint', 'devnet_snapshot', 'devnet_createBlock', 'devnet_getConfig']) {
        const message = `the method ${method} does not exist/is not available`;
        expect((await call(own.url('rollup-test', 'nodev'), method, {})).error).toEqual({ code: -32601, message });
        expect((await call(off.url('rollup-test'), method, {})).error).toMatchObject({ code: -32601 });
      }
      expect((await call(own.url('rollup-test', 'dev'), 'devnet_snapshot', {})).result).toBe('0x0');
      expect((await call(off.url('rollup-test'), 'starknet_blockNumber', [])).result).toBe(0);
    } finally {
      await Promise.all([own.stop(), off.stop()]);
    }
  });
});

describe('bad params', () => {
  it('every devnet_ control answers hostile params with a clear error, never an internal one, and changes nothing', async () => {
    const own = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [testSeed()] });
    const at = own.url('rollup-test');
    const params: Record<string, string[]> = {
      devnet_mint: ['address', 'amount', 'unit'],
      devnet_getAccountBalance: ['address', 'unit', 'block_id'],
      devnet_getPredeployedAccounts: ['with_balance'],
      devnet_setGasPrice: ['gas_price_wei', 'gas_price_fri', 'data_gas_price_wei', 'l2_gas_price_fri', 'generate_block'],
      devnet_abortBlocks: ['starting_block_id'],
      devnet_acceptOnL1: ['block_id', 'starting_block_id'],
      devnet_setTime: ['time', 'generate_block'],
      devnet_revert: ['id'],
      devnet_restart: ['restart_l1_to_l2_messaging'],
      devnet_snapshot: [],
      devnet_getConfig: [],
    };
    const hostile = ['x', '0x', -1, 1.5, 2 ** 64, null, [], {}, { block_number: -1 }, { block_hash: 'zz' }, '0x' + 'f'.repeat(70), 'WEI ', 1e308];
    const before = await call(at, 'starknet_getBlockWithTxHashes', { block_id: 'pending' });
    try {
      for (const [method, names] of Object.entries(params)) {
        for (const value of hostile) {
          const bodies = [...names.map((n) => ({ [n]: value })), [value, value, value], { nonsense: value }];
          for (const body of bodies) {
            const r = await call(at, method, body);
            if (r.error === undefined) continue; // e.g. an optional param given null
            expect(r.error.code, `${method} ${JSON.stringify(body)}`).not.toBe(-32603);
            expect(typeof r.error.message).toBe('string');
            expect(JSON.stringify(r.error)).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
          }
        }
      }
      expect(await call(at, 'starknet_getBlockWithTxHashes', { block_id: 'pending' })).toEqual(before);
      expect((await call(at, 'starknet_blockNumber', [])).result).toBe(0);
    } finally {
      await own.stop();
    }
  });
});
