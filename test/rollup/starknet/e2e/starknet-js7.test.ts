/**
 * The starknet_ family as the Starknet JSON-RPC 0.8, read by starknet.js 7 unchanged (RpcProvider)
 * and checked on the wire for the spec's shapes and errors, on a test chain driven by a manual clock.
 */
import { Account, RpcProvider } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';
import { ALICE, BOB, CAROL, COUNTER, ETH_TOKEN, FRI_PRICE, START_MS, UNLIMITED_KEYS, WEI_PRICE, increase, testSeed } from '../../fixture.js';
import { invokeV1, invokeV3, starknetJsHash } from '../../txs.js';

let gw: Gateway;
let url: string;
let provider: RpcProvider;
const clock = new ManualClock(START_MS);
const prices = { dataGasPrices: { wei: '0x3', fri: '0x5' }, l2GasPrices: { wei: '0x7', fri: '0xb' }, l1DaMode: 'CALLDATA' };

beforeAll(async () => {
  gw = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [testSeed(prices)] });
  url = gw.url('rollup-test');
  provider = await RpcProvider.create({ nodeUrl: url });
});
afterAll(() => gw.stop());

const rpc = async (method: string, params: unknown) => call(url, method, params);

describe('starknet_ read by starknet.js 7', () => {
  it('creates a provider from the spec version and reads chain id, head and sync state', async () => {
    expect((await rpc('starknet_specVersion', [])).result).toBe('0.8.1');
    expect(await provider.getSpecVersion()).toMatch(/^0\.8/);
    expect(await provider.getChainId()).toBe('0x534e5f4d41494e');
    expect(await provider.getBlockNumber()).toBe(0);
    const latest = await provider.getBlockLatestAccepted();
    expect(latest.block_number).toBe(0);
    expect(await provider.getSyncingStats()).toBe(false);
  });

  it('serves spec 0.8 block headers by number, hash and tag', async () => {
    const block: any = await provider.getBlock('latest');
    expect(block).toMatchObject({
      status: 'ACCEPTED_ON_L1',
      block_number: 0,
      l1_gas_price: { price_in_wei: '0x' + WEI_PRICE.toString(16), price_in_fri: '0x' + FRI_PRICE.toString(16) },
      l1_data_gas_price: { price_in_wei: '0x3', price_in_fri: '0x5' },
      l2_gas_price: { price_in_wei: '0x7', price_in_fri: '0xb' },
      l1_da_mode: 'CALLDATA',
      starknet_version: '0.13.4',
      transactions: [],
    });
    expect(await provider.getBlock(0)).toEqual(block);
    expect(await provider.getBlock(block.block_hash)).toEqual(block);
    const pending: any = await provider.getBlock('pending');
    expect(pending.block_hash).toBeUndefined();
    expect(pending).toMatchObject({ parent_hash: block.block_hash, transactions: [], l1_da_mode: 'CALLDATA' });
  });

  it('follows a transaction through pending, L2 and L1 with spec receipts and statuses', async () => {
    const tx = invokeV1(ALICE, increase(1), 0);
    const { result } = await rpc('starknet_addInvokeTransaction', { invoke_transaction: tx });
    const hash = result.transaction_hash;
    expect(hash).toBe(starknetJsHash(tx));
    expect(await provider.getTransactionStatus(hash)).toEqual({ finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' });
    const pendingReceipt: any = await provider.getTransactionReceipt(hash);
    expect(pendingReceipt.isSuccess()).toBe(true);
    expect(pendingReceipt.block_hash).toBeUndefined();
    const pending: any = await provider.getBlockWithTxs('pending');
    expect(pending.transactions).toMatchObject([
      { transaction_hash: hash, type: 'INVOKE', version: '0x1', sender_address: ALICE.address, max_fee: tx.max_fee },
    ]);

    await rpc('devnet_createBlock', {});
    const receipt: any = await provider.getTransactionReceipt(hash);
    expect(receipt.isSuccess()).toBe(true);
    expect(receipt.value).toMatchObject({ type: 'INVOKE', execution_status: 'SUCCEEDED', finality_status: 'ACCEPTED_ON_L2', block_number: 1 });
    expect(receipt.value.actual_fee).toEqual({ amount: expect.stringMatching(/^0x[1-9a-f]/), unit: 'WEI' });
    expect(receipt.value.execution_resources).toEqual({ l1_gas: expect.any(Number), l1_data_gas: 0, l2_gas: 0 });
    expect(BigInt(receipt.value.actual_fee.amount)).toBe(BigInt(receipt.value.execution_resources.l1_gas) * WEI_PRICE);

    await rpc('devnet_acceptOnL1', { block_id: 'latest' });
    expect(await provider.getTransactionStatus(hash)).toEqual({ finality_status: 'ACCEPTED_ON_L1', execution_status: 'SUCCEEDED' });
    const withReceipts: any = await provider.getBlockWithReceipts(1);
    expect(withReceipts.transactions[0].receipt).toMatchObject({ transaction_hash: hash, finality_status: 'ACCEPTED_ON_L1' });
    expect(await provider.getTransactionByHash(hash)).toMatchObject({ transaction_hash: hash, nonce: '0x0' });
    expect(await provider.getBlockTransactionCount(1)).toBe(1);
  });

  it('shows a v3 transaction with its resource bounds and a fee in FRI', async () => {
    const tx = invokeV3(BOB, increase(2), 0);
    const hash = (await rpc('starknet_addInvokeTransaction', [tx])).result.transaction_hash;
    await rpc('devnet_createBlock', {});
    const got: any = await provider.getTransactionByHash(hash);
    expect(got).toMatchObject({ version: '0x3', resource_bounds: { l1_gas: tx.resource_bounds.l1_gas, l2_gas: tx.resource_bounds.l2_gas } });
    expect(((await provider.getTransactionReceipt(hash)) as any).value.actual_fee.unit).toBe('FRI');
  });

  it('reads nonces, class hashes and storage at a block', async () => {
    expect(await provider.getNonceForAddress(ALICE.address)).toBe('0x1');
    expect(await provider.getNonceForAddress(ALICE.address, 0)).toBe('0x0');
    expect(await provider.getClassHashAt(COUNTER)).toBe('0x2');
    expect(await provider.getStorageAt(COUNTER, '0x7', 0)).toBe('0x1');
  });
});

describe('starknet_ errors', () => {
  it('answers the spec errors instead of null', async () => {
    const unknown = '0x' + 'ab'.repeat(31);
    expect((await rpc('starknet_getBlockWithTxHashes', [{ block_number: 99 }])).error).toEqual({ code: 24, message: 'Block not found' });
    expect((await rpc('starknet_getBlockWithTxs', [{ block_hash: unknown }])).error).toEqual({ code: 24, message: 'Block not found' });
    expect((await rpc('starknet_getTransactionReceipt', [unknown])).error).toEqual({ code: 29, message: 'Transaction hash not found' });
    expect((await rpc('starknet_getTransactionStatus', [unknown])).error).toEqual({ code: 29, message: 'Transaction hash not found' });
    expect((await rpc('starknet_getNonce', ['latest', unknown])).error).toEqual({ code: 20, message: 'Contract not found' });
    expect((await rpc('starknet_getClassHashAt', ['latest', unknown])).error).toEqual({ code: 20, message: 'Contract not found' });
    expect((await rpc('starknet_getBlockWithTxHashes', ['safe'])).error.code).toBe(-32602);
    await expect(provider.getBlock(99)).rejects.toThrow(/Block not found/);
    // rollup_ keeps SPEC's shapes: null for what is not found
    expect((await rpc('rollup_getTransactionReceipt', [unknown])).result).toBeNull();
  });

  it('reports a rejected transaction as REJECTED and has no receipt for it', async () => {
    const tx = invokeV1(ALICE, increase(3), 1);
    const hash = (await rpc('starknet_addInvokeTransaction', [tx])).result.transaction_hash;
    await rpc('devnet_rejectBlock', { block_id: 'pending' });
    expect(await provider.getTransactionStatus(hash)).toEqual({ finality_status: 'REJECTED' });
    expect((await rpc('starknet_getTransactionReceipt', [hash])).error.code).toBe(29);
  });

  it('answers the 0.9 tags pre_confirmed and l1_accepted', async () => {
    const l1 = (await rpc('starknet_getBlockWithTxHashes', ['l1_accepted'])).result;
    expect(l1.status).toBe('ACCEPTED_ON_L1');
    expect(l1.block_number).toBe(1);
    expect((await rpc('starknet_getBlockWithTxHashes', ['pre_confirmed'])).result).toEqual((await rpc('starknet_getBlockWithTxHashes', ['pending'])).result);
  });
});

describe('starknet.js 7 Account', () => {
  it('estimates an invoke in the spec form, per resource, in FRI', async () => {
    const account = new Account(provider, CAROL.address, CAROL.privateKey, '1');
    const estimate: any = await account.estimateInvokeFee({ contractAddress: COUNTER, entrypoint: 'increase', calldata: [5] });
    expect(estimate.unit).toBe('FRI');
    expect(estimate.l1_gas_price).toBe(FRI_PRICE);
    expect(estimate.overall_fee).toBe(estimate.l1_gas_consumed * FRI_PRICE);
    expect(estimate.resourceBounds.l1_gas.max_amount).not.toBe('0x0');
  });

  it('executes with its default estimate-then-submit and waits for the transaction', async () => {
    const account = new Account(provider, CAROL.address, CAROL.privateKey, '1');
    const { transaction_hash } = await account.execute({ contractAddress: COUNTER, entrypoint: 'increase', calldata: [5] });
    const receipt: any = await provider.waitForTransaction(transaction_hash, { retryInterval: 50 });
    expect(receipt.isSuccess()).toBe(true);
    expect(receipt.value.actual_fee.unit).toBe('FRI');
    expect(await provider.getNonceForAddress(CAROL.address, 'pending')).toBe('0x1');
    const sent: any = await provider.getTransactionByHash(transaction_hash);
    expect(sent.resource_bounds.l1_data_gas).toBeDefined();
  });

  it('is refused as a sequencer refuses too-low bounds and stale nonces', async () => {
    const account = new Account(provider, CAROL.address, CAROL.privateKey, '1');
    const low = {
      l1_gas: { max_amount: 1n, max_price_per_unit: 1n },
      l2_gas: { max_amount: 0n, max_price_per_unit: 0n },
      l1_data_gas: { max_amount: 0n, max_price_per_unit: 0n },
    };
    await expect(account.execute({ contractAddress: COUNTER, entrypoint: 'increase', calldata: [1] }, { resourceBounds: low } as any)).rejects.toThrow(
      /53|resources/,
    );
    await expect(account.execute({ contractAddress: COUNTER, entrypoint: 'increase', calldata: [1] }, { nonce: 0 })).rejects.toThrow(/52|nonce/i);
  });
});

describe('starknet_getEvents and transactions by index', () => {
  it('pages events with continuation tokens through starknet.js 7', async () => {
    const all: any = await provider.getEvents({ from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 100 });
    expect(all.continuation_token).toBeUndefined();
    expect(all.events.length).toBeGreaterThanOrEqual(2);
    const paged: any[] = [];
    let token: string | undefined;
    do {
      const page: any = await provider.getEvents({ from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 1, continuation_token: token });
      expect(page.events.length).toBe(1);
      paged.push(...page.events);
      token = page.continuation_token;
    } while (token !== undefined);
    expect(paged).toEqual(all.events);
    const first = all.events[0];
    const byKey: any = await provider.getEvents({ address: first.from_address, keys: [[first.keys[0]]], chunk_size: 100 });
    expect(byKey.events.length).toBeGreaterThan(0);
    for (const e of byKey.events) expect(e).toMatchObject({ from_address: first.from_address, keys: [first.keys[0], ...e.keys.slice(1)] });
    expect(first).toMatchObject({ block_number: expect.any(Number), block_hash: expect.any(String), transaction_hash: expect.any(String) });
    expect((await rpc('starknet_getEvents', { filter: { chunk_size: 2000 } })).error).toEqual({ code: 31, message: 'Requested page size is too big' });
    expect((await rpc('starknet_getEvents', { filter: { chunk_size: 2, continuation_token: 'x' } })).error.code).toBe(33);
  });

  it('answers a transaction by block and index, error 27 past the end', async () => {
    const block: any = await provider.getBlockWithTxHashes(1);
    expect(await provider.getTransactionByBlockIdAndIndex(1, 0)).toMatchObject({ transaction_hash: block.transactions[0] });
    expect((await rpc('starknet_getTransactionByBlockIdAndIndex', [{ block_number: 1 }, 5])).error).toEqual({
      code: 27,
      message: 'Invalid transaction index in a block',
    });
  });
});

describe('starknet_call', () => {
  const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
  const seedStrk = 10n ** 24n;

  it('answers fee-token views from the simulated balances through starknet.js 7 callContract', async () => {
    await gw.stop();
    gw = await start({
      port: 0,
      clock,
      keys: UNLIMITED_KEYS,
      chains: [
        testSeed({
          ...prices,
          contracts: [
            { address: ETH_TOKEN, classHash: '0x1' },
            { address: STRK, classHash: '0x1' },
            { address: COUNTER, classHash: '0x2' },
          ],
        }),
      ],
    });
    url = gw.url('rollup-test');
    provider = new RpcProvider({ nodeUrl: url });
    const [low, high] = await provider.callContract({ contractAddress: STRK, entrypoint: 'balanceOf', calldata: [ALICE.address] });
    expect([low, high]).toEqual(['0x' + seedStrk.toString(16), '0x0']);
    expect(await provider.callContract({ contractAddress: STRK, entrypoint: 'balance_of', calldata: [BOB.address] })).toEqual([low, high]);
    expect(await provider.callContract({ contractAddress: ETH_TOKEN, entrypoint: 'decimals', calldata: [] })).toEqual(['0x12']);
    expect(await provider.callContract({ contractAddress: ETH_TOKEN, entrypoint: 'symbol', calldata: [] })).toEqual(['0x455448']);
    const [supply] = await provider.callContract({ contractAddress: STRK, entrypoint: 'totalSupply', calldata: [] });
    expect(BigInt(supply!)).toBe(3n * seedStrk);
    // a v3 fee lowers the STRK balance the call reads
    await rpc('starknet_addInvokeTransaction', [invokeV3(ALICE, increase(1), 0)]);
    const [after] = await provider.callContract({ contractAddress: STRK, entrypoint: 'balanceOf', calldata: [ALICE.address] }, 'pending');
    expect(BigInt(after!)).toBeLessThan(seedStrk);
    expect(await provider.callContract({ contractAddress: ALICE.address, entrypoint: 'get_nonce', calldata: [] }, 'pending')).toEqual(['0x1']);
  });

  it('answers error 40 saying devgate does not execute the contract, and 20 for none deployed', async () => {
    const r = await rpc('starknet_call', { request: { contract_address: COUNTER, entry_point_selector: '0x1', calldata: [] }, block_id: 'latest' });
    expect(r.error).toMatchObject({ code: 40, message: 'Contract error', data: { revert_error: expect.stringContaining('devgate does not execute Cairo') } });
    // The error points at the page that documents what is modelled.
    expect(r.error.data.revert_error).toContain('(see docs/starknet.md "The starknet_call rule")');
    await expect(provider.callContract({ contractAddress: COUNTER, entrypoint: 'get_counter', calldata: [] })).rejects.toThrow(
      /devgate does not execute Cairo/,
    );
    const none = await rpc('starknet_call', { request: { contract_address: '0x1234', entry_point_selector: '0x1', calldata: [] }, block_id: 'latest' });
    expect(none.error).toEqual({ code: 20, message: 'Contract not found' });
  });
});
