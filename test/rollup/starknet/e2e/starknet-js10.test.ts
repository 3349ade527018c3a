/**
 * The starknet_ family as the Starknet JSON-RPC 0.9 at the versioned path `/v3/<key>/rpc/v0_9`, read by
 * starknet.js 10 unchanged (it refuses a 0.8 node), and checked on the wire for 0.9's shapes: the
 * PRE_CONFIRMED block, statuses and receipts, `pre_confirmed` / `l1_accepted` tags, spec errors.
 */
import { Account, RpcProvider, ec, hash } from 'starknet10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';
import { ALICE, BOB, CAROL, COUNTER, ETH_TOKEN, FRI_PRICE, START_MS, UNLIMITED_KEYS, increase, testSeed } from '../../fixture.js';
import { invokeV1, invokeV3, starknetJsHash } from '../../txs.js';
import { ACCOUNT_CLASS, COUNTER_CLASS, SEED_CLASSES, sierraClass } from '../../classes.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
let gw: Gateway;
let url: string;
let provider: RpcProvider;
const clock = new ManualClock(START_MS);
/** A new account's key, and the address a DEPLOY_ACCOUNT of the seed's account class puts it at (funded in the seed). */
const NEW_KEY = '0x2dccce1da22003777062ee0870e9881b';
const NEW_PUBLIC = ec.starkCurve.getStarkKey(NEW_KEY);
const NEW_ADDRESS = hash.calculateContractAddressFromHash(NEW_PUBLIC, ACCOUNT_CLASS.classHash, [NEW_PUBLIC], 0);
const BLOCK_TIME_MS = 2_000;
const seed = testSeed({
  // blocks are sealed every 2 s of the manual clock; the tests move it only where they wait for a block
  blockTimeMs: BLOCK_TIME_MS,
  classes: SEED_CLASSES,
  fundedAddresses: [{ address: NEW_ADDRESS, strkBalance: '0x' + (10n ** 21n).toString(16) }],
  dataGasPrices: { wei: '0x3', fri: '0x5' },
  l2GasPrices: { wei: '0x7', fri: '0xb' },
  contracts: [
    { address: ETH_TOKEN, classHash: '0x1' },
    { address: STRK, classHash: '0x1' },
    { address: COUNTER, classHash: COUNTER_CLASS.classHash, storage: { '0x7': '0x1' } },
  ],
});

beforeAll(async () => {
  gw = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [seed] });
  url = gw.url('rollup-test') + '/rpc/v0_9';
  provider = await RpcProvider.create({ nodeUrl: url });
});
afterAll(() => gw.stop());

const rpc = async (method: string, params: unknown, at = url) => call(at, method, params);

describe('versioned paths', () => {
  it('announces 0.9.0 at /rpc/v0_9 and 0.8.1 at /rpc/v0_8 and unversioned; other versions are 404', async () => {
    expect((await rpc('starknet_specVersion', [])).result).toBe('0.9.0');
    expect(await provider.getSpecVersion()).toBe('0.9.0');
    expect((await rpc('starknet_specVersion', [], gw.url('rollup-test'))).result).toBe('0.8.1');
    expect((await rpc('starknet_specVersion', [], gw.url('rollup-test') + '/rpc/v0_8')).result).toBe('0.8.1');
    const res = await fetch(gw.url('rollup-test') + '/rpc/v0_6', { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"starknet_specVersion"}' });
    expect(res.status).toBe(404);
  });
});

describe('starknet.js 10 reads spec 0.9', () => {
  it('reads chain id, head and blocks by number, hash, latest and pre_confirmed', async () => {
    expect(await provider.getChainId()).toBe('0x534e5f4d41494e');
    expect(await provider.getBlockNumber()).toBe(0);
    const block: any = await provider.getBlock('latest');
    expect(block).toMatchObject({
      status: 'ACCEPTED_ON_L1',
      block_number: 0,
      l1_data_gas_price: { price_in_wei: '0x3', price_in_fri: '0x5' },
      transactions: [],
    });
    expect(await provider.getBlock(0)).toEqual(block);
    expect(await provider.getBlock(block.block_hash)).toEqual(block);
    const pre: any = await provider.getBlock('pre_confirmed');
    expect(pre).toMatchObject({ block_number: 1, transactions: [] });
    expect(pre.block_hash).toBeUndefined();
    expect(pre.parent_hash).toBeUndefined();
    expect(pre.status).toBeUndefined();
    expect((await rpc('starknet_getBlockWithTxHashes', ['l1_accepted'])).result.block_number).toBe(0);
    expect((await rpc('starknet_getBlockWithTxHashes', ['pending'])).error.code).toBe(-32602);
  });

  it('follows a transaction through PRE_CONFIRMED, ACCEPTED_ON_L2 and ACCEPTED_ON_L1', async () => {
    const tx = invokeV3(ALICE, increase(1), 0);
    const hash = (await rpc('starknet_addInvokeTransaction', { invoke_transaction: tx })).result.transaction_hash;
    expect(hash).toBe(starknetJsHash(tx));
    expect(await provider.getTransactionStatus(hash)).toEqual({ finality_status: 'PRE_CONFIRMED', execution_status: 'SUCCEEDED' });
    const pre: any = await provider.getTransactionReceipt(hash);
    expect(pre.isSuccess()).toBe(true);
    expect(pre.value).toMatchObject({ finality_status: 'PRE_CONFIRMED', block_number: 1 });
    expect(pre.value.block_hash).toBeUndefined();
    const withTxs: any = await provider.getBlockWithTxs('pre_confirmed');
    expect(withTxs.transactions).toMatchObject([{ transaction_hash: hash, type: 'INVOKE', version: '0x3' }]);
    const withReceipts: any = await provider.getBlockWithReceipts('pre_confirmed');
    expect(withReceipts.transactions[0].receipt).toMatchObject({ transaction_hash: hash, finality_status: 'PRE_CONFIRMED' });

    await rpc('devnet_createBlock', {});
    const receipt: any = await provider.getTransactionReceipt(hash);
    expect(receipt.isSuccess()).toBe(true);
    expect(receipt.value).toMatchObject({ finality_status: 'ACCEPTED_ON_L2', block_number: 1, actual_fee: { unit: 'FRI' } });
    expect(await provider.getTransactionStatus(hash)).toEqual({ finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' });
    await rpc('devnet_acceptOnL1', { block_id: 'latest' });
    expect(await provider.getTransactionStatus(hash)).toEqual({ finality_status: 'ACCEPTED_ON_L1', execution_status: 'SUCCEEDED' });
    expect((await rpc('starknet_getBlockWithTxHashes', ['l1_accepted'])).result.block_number).toBe(1);
  });

  it('reads nonces, class hashes and fee-token balances', async () => {
    expect(await provider.getNonceForAddress(ALICE.address)).toBe('0x1');
    expect(await provider.getNonceForAddress(ALICE.address, 0)).toBe('0x0');
    expect(await provider.getClassHashAt(COUNTER)).toBe(COUNTER_CLASS.classHash);
    const [low, high] = await provider.callContract({ contractAddress: STRK, entrypoint: 'balanceOf', calldata: [BOB.address] });
    expect([BigInt(low!), high]).toEqual([10n ** 24n, '0x0']);
  });

  it('pages events with continuation tokens', async () => {
    const all: any = await provider.getEvents({ from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 100 });
    expect(all.events.length).toBe(1);
    const page: any = await provider.getEvents({ from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 1 });
    expect(page.events).toEqual(all.events);
    expect(page.continuation_token).toBeUndefined();
  });
});

describe('starknet.js 10 Account', () => {
  it('estimates an invoke in FRI and executes it with its default estimate-then-submit', async () => {
    const account = new Account({ provider, address: CAROL.address, signer: CAROL.privateKey, cairoVersion: '1' });
    const estimate: any = await account.estimateInvokeFee({ contractAddress: COUNTER, entrypoint: 'increase', calldata: [5] });
    expect(estimate.unit).toBe('FRI');
    // starknet.js 10 answers the bounds it derives from the spec estimate (+50% on amounts and prices)
    const raw = (await rpc('starknet_estimateFee', { request: [], simulation_flags: [], block_id: 'latest' })).result;
    expect(raw).toEqual([]);
    expect(estimate.resourceBounds.l1_gas.max_price_per_unit).toBe((FRI_PRICE * 3n) / 2n);
    expect(estimate.resourceBounds.l1_gas.max_amount).toBeGreaterThan(2_500n);
    const { transaction_hash } = await account.execute({ contractAddress: COUNTER, entrypoint: 'increase', calldata: [5] });
    expect(await provider.getNonceForAddress(CAROL.address, 'pre_confirmed')).toBe('0x1');
    // waitForTransaction waits for ACCEPTED_ON_L2 by default: the block interval seals the block
    const waiting = provider.waitForTransaction(transaction_hash, { retryInterval: 20 });
    clock.advance(BLOCK_TIME_MS);
    const receipt: any = await waiting;
    expect(receipt.isSuccess()).toBe(true);
    expect(receipt.value.finality_status).toBe('ACCEPTED_ON_L2');
    expect(await provider.getNonceForAddress(CAROL.address, 'latest')).toBe('0x1');
  });

  it('is refused with 53 for too-low bounds and 52 for a stale nonce; v1 is 61 in 0.9', async () => {
    const account = new Account({ provider, address: CAROL.address, signer: CAROL.privateKey, cairoVersion: '1' });
    const low = {
      l1_gas: { max_amount: 1n, max_price_per_unit: 1n },
      l2_gas: { max_amount: 0n, max_price_per_unit: 0n },
      l1_data_gas: { max_amount: 0n, max_price_per_unit: 0n },
    };
    await expect(account.execute({ contractAddress: COUNTER, entrypoint: 'increase', calldata: [1] }, { resourceBounds: low, tip: 0 } as any)).rejects.toThrow(
      /53|resources/,
    );
    await expect(account.execute({ contractAddress: COUNTER, entrypoint: 'increase', calldata: [1] }, { nonce: 0, tip: 0 } as any)).rejects.toThrow(
      /52|nonce/i,
    );
    expect((await rpc('starknet_addInvokeTransaction', [invokeV1(BOB, increase(1), 0)])).error).toMatchObject({ code: 61 });
  });
});

describe('starknet.js 10 deploys an account, declares a class, simulates, reads state updates', () => {
  it('deploys a funded account with deployAccount (its own estimate) and reads it back', async () => {
    // an undeployed account has no class to read its Cairo version from: starknet.js is told it
    const fresh = new Account({ provider, address: NEW_ADDRESS, signer: NEW_KEY, cairoVersion: '1' });
    const { transaction_hash, contract_address } = await fresh.deployAccount({
      classHash: ACCOUNT_CLASS.classHash,
      constructorCalldata: [NEW_PUBLIC],
      addressSalt: NEW_PUBLIC,
    });
    expect(BigInt(contract_address)).toBe(BigInt(NEW_ADDRESS));
    const receipt: any = await provider.waitForTransaction(transaction_hash, { retryInterval: 50, successStates: ['PRE_CONFIRMED'] } as any);
    expect(receipt.isSuccess()).toBe(true);
    expect(receipt.value).toMatchObject({ type: 'DEPLOY_ACCOUNT', contract_address: NEW_ADDRESS, actual_fee: { unit: 'FRI' } });
    expect(await provider.getTransactionByHash(transaction_hash)).toMatchObject({
      type: 'DEPLOY_ACCOUNT',
      class_hash: ACCOUNT_CLASS.classHash,
      constructor_calldata: [NEW_PUBLIC],
    });
    expect(await provider.getClassHashAt(NEW_ADDRESS, 'pre_confirmed')).toBe(ACCOUNT_CLASS.classHash);
    expect(await provider.getNonceForAddress(NEW_ADDRESS, 'pre_confirmed')).toBe('0x1');
    const update: any = await provider.getStateUpdate('pre_confirmed');
    expect(update.state_diff.deployed_contracts).toContainEqual({ address: NEW_ADDRESS, class_hash: ACCOUNT_CLASS.classHash });
    expect(update.block_hash).toBeUndefined();
    await rpc('devnet_createBlock', {});
    const sealed: any = await provider.getStateUpdate('latest');
    expect(sealed).toMatchObject({ block_hash: expect.any(String), new_root: expect.any(String) });
    expect(sealed.state_diff.nonces).toContainEqual({ contract_address: NEW_ADDRESS, nonce: '0x1' });
    // once deployed, an Account finds its Cairo version from starknet_getClassAt
    const deployed = new Account({ provider, address: NEW_ADDRESS, signer: NEW_KEY });
    expect(await deployed.getCairoVersion()).toBe('1');
    // a second deployment at the same address is refused
    await expect(fresh.deployAccount({ classHash: ACCOUNT_CLASS.classHash, constructorCalldata: [NEW_PUBLIC], addressSalt: NEW_PUBLIC })).rejects.toThrow(
      /unavailable for deployment|40/,
    );
  });

  it('declares a new class and serves it by hash', async () => {
    const account = new Account({ provider, address: BOB.address, signer: BOB.privateKey, cairoVersion: '1' });
    const cls = sierraClass('Greeter', [{ name: 'greet', inputs: [['name', 'core::felt252']], outputs: [] }], []);
    const contract = { ...cls.contractClass, abi: cls.abi };
    const { transaction_hash, class_hash } = await account.declare({ contract: contract as any, compiledClassHash: cls.compiledClassHash });
    expect(class_hash).toBe(cls.classHash);
    const receipt: any = await provider.waitForTransaction(transaction_hash, { retryInterval: 50, successStates: ['PRE_CONFIRMED'] } as any);
    expect(receipt.value.type).toBe('DECLARE');
    expect(await provider.getClass(cls.classHash, 'pre_confirmed')).toMatchObject({
      contract_class_version: '0.1.0',
      entry_points_by_type: cls.contractClass.entry_points_by_type,
    });
    expect(((await provider.getStateUpdate('pre_confirmed')) as any).state_diff.declared_classes).toContainEqual({
      class_hash: cls.classHash,
      compiled_class_hash: cls.compiledClassHash,
    });
    await expect(account.declare({ contract: contract as any, compiledClassHash: cls.compiledClassHash })).rejects.toThrow(/51|already declared/i);
  });
});

describe('starknet.js 10 simulates', () => {
  it('simulates an invoke (SKIP_VALIDATE and SKIP_FEE_CHARGE by default) without changing the chain', async () => {
    const account = new Account({ provider, address: ALICE.address, signer: ALICE.privateKey, cairoVersion: '1' });
    const nonce = await provider.getNonceForAddress(ALICE.address, 'pre_confirmed');
    const simulated: any = await account.simulateTransaction([
      { type: 'INVOKE', payload: { contractAddress: COUNTER, entrypoint: 'increase', calldata: [9] } } as any,
    ]);
    const [sim] = simulated.simulated_transactions;
    expect(sim.unit).toBe('FRI');
    expect(sim.transaction_trace.type).toBe('INVOKE');
    expect(sim.transaction_trace.validate_invocation).toBeUndefined();
    expect(sim.transaction_trace.fee_transfer_invocation).toBeUndefined();
    expect(sim.transaction_trace.execute_invocation.calls[0]).toMatchObject({ contract_address: COUNTER, calldata: ['0x9'] });
    expect(await provider.getNonceForAddress(ALICE.address, 'pre_confirmed')).toBe(nonce);
    const raw = await rpc('starknet_simulateTransactions', {
      block_id: 'pre_confirmed',
      transactions: [invokeV3(ALICE, increase(1), BigInt(nonce))],
      simulation_flags: [],
    });
    expect(raw.result[0].transaction_trace).toMatchObject({
      validate_invocation: { entry_point_selector: expect.any(String) },
      fee_transfer_invocation: { contract_address: STRK },
    });
    expect(raw.result[0].fee_estimation.unit).toBe('FRI');
  });

  it('refuses a bad signature with 55', async () => {
    const tx = { ...invokeV3(ALICE, increase(1), BigInt(await provider.getNonceForAddress(ALICE.address, 'pre_confirmed'))), signature: ['0x1', '0x2'] };
    expect((await rpc('starknet_addInvokeTransaction', [tx])).error).toMatchObject({ code: 55, message: 'Account validation failed' });
  });
});

describe('starknet.js 10 follows an L1 -> L2 message', () => {
  it('estimates its fee, and reads its status by L1 transaction hash through the lifecycle', async () => {
    const l1Tx = '0x' + 'c3'.repeat(32);
    const msg = {
      from_address: '0xae0ee0a63a2ce6baeeffe56e7714fb4efe48d419',
      to_address: COUNTER,
      entry_point_selector: hash.getSelectorFromName('on_l1_message'),
      payload: ['0x1'],
    };
    const fee: any = await provider.estimateMessageFee(msg as any);
    expect(fee.unit).toBe('WEI');
    const overall = BigInt(fee.overall_fee);
    const sent = await rpc('devnet_postmanSendMessageToL2', {
      l2_contract_address: COUNTER,
      entry_point_selector: msg.entry_point_selector,
      l1_contract_address: msg.from_address,
      payload: msg.payload,
      paid_fee_on_l1: '0x' + overall.toString(16),
      nonce: '0x0',
      l1_transaction_hash: l1Tx,
    });
    const handler = sent.result.transaction_hash;
    expect(await provider.getL1MessagesStatus(l1Tx)).toEqual([{ transaction_hash: handler, finality_status: 'PRE_CONFIRMED', execution_status: 'SUCCEEDED' }]);
    await rpc('devnet_createBlock', {});
    expect((await provider.getL1MessagesStatus(l1Tx))[0]!.finality_status).toBe('ACCEPTED_ON_L2');
    const receipt: any = await provider.getTransactionReceipt(handler);
    expect(receipt.value).toMatchObject({ type: 'L1_HANDLER', message_hash: sent.result.message_hash, actual_fee: { unit: 'WEI' } });
    await expect(provider.getL1MessagesStatus('0x' + 'd4'.repeat(32))).rejects.toThrow(/29|Transaction hash not found/);
  });
});

describe('starknet.js 10 pages events over the whole chain', () => {
  it('reads every event one page at a time, the pre-confirmed ones with their block number', async () => {
    await rpc('starknet_addInvokeTransaction', [invokeV3(CAROL, increase(2), BigInt(await provider.getNonceForAddress(CAROL.address, 'pre_confirmed')))]);
    const all: any = await provider.getEvents({ from_block: { block_number: 0 }, to_block: 'pre_confirmed', chunk_size: 1000 });
    expect(all.events.length).toBeGreaterThan(3);
    const paged: any[] = [];
    let token: string | undefined;
    do {
      const page: any = await provider.getEvents({ from_block: { block_number: 0 }, to_block: 'pre_confirmed', chunk_size: 2, continuation_token: token });
      paged.push(...page.events);
      token = page.continuation_token;
    } while (token !== undefined);
    expect(paged).toEqual(all.events);
    const last = all.events.at(-1);
    expect(last.block_hash).toBeUndefined();
    expect(last.block_number).toBe((await provider.getBlockNumber()) + 1);
  });
});

describe('spec 0.9 errors', () => {
  it('answers 24, 29 and 20, and knows no REJECTED', async () => {
    const unknown = '0x' + 'ab'.repeat(31);
    expect((await rpc('starknet_getBlockWithTxHashes', [{ block_number: 99 }])).error).toEqual({ code: 24, message: 'Block not found' });
    expect((await rpc('starknet_getTransactionReceipt', [unknown])).error).toEqual({ code: 29, message: 'Transaction hash not found' });
    expect((await rpc('starknet_getClassHashAt', ['latest', unknown])).error).toEqual({ code: 20, message: 'Contract not found' });
    const hash = (await rpc('starknet_addInvokeTransaction', [invokeV3(BOB, increase(3), 1)])).result.transaction_hash;
    const rejected = (await rpc('devnet_rejectBlock', { block_id: 'pending' }, gw.url('rollup-test'))).result;
    expect(rejected).toBeDefined();
    expect((await rpc('starknet_getTransactionStatus', [hash])).error.code).toBe(29);
    expect((await rpc('starknet_getTransactionStatus', [hash], gw.url('rollup-test'))).result).toEqual({ finality_status: 'REJECTED' });
  });
});
