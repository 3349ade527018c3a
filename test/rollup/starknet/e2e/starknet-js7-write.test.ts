/**
 * starknet.js 7 (spec 0.8, unversioned path) unchanged, on what spec 0.8 clients write and read beyond
 * INVOKE: deployAccount, declare, simulateTransaction, getStateUpdate, getClassAt / getClassByHash,
 * estimateMessageFee, and their spec errors.
 */
import { Account, RpcProvider, ec, hash } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';
import { ACCOUNT_CLASS, COUNTER_CLASS, ERC20_CLASS, SEED_CLASSES, sierraClass } from '../../classes.js';
import { ALICE, BOB, COUNTER, ETH_TOKEN, START_MS, UNLIMITED_KEYS, WEI_PRICE, testSeed } from '../../fixture.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const NEW_KEY = '0x5b0b1e7f3ac14d1c9b0e9af2c0b5a4e1';
const NEW_PUBLIC = ec.starkCurve.getStarkKey(NEW_KEY);
const SALT = '0x7';
const NEW_ADDRESS = hash.calculateContractAddressFromHash(SALT, ACCOUNT_CLASS.classHash, [NEW_PUBLIC], 0);
const POOR_ADDRESS = hash.calculateContractAddressFromHash('0x8', ACCOUNT_CLASS.classHash, [NEW_PUBLIC], 0);

let gw: Gateway;
let url: string;
let provider: RpcProvider;

beforeAll(async () => {
  const seed = testSeed({
    classes: SEED_CLASSES,
    fundedAddresses: [{ address: NEW_ADDRESS, strkBalance: '0x' + (10n ** 21n).toString(16) }],
    accounts: (testSeed().accounts as Record<string, unknown>[]).map((a) => ({ ...a, classHash: ACCOUNT_CLASS.classHash })),
    contracts: [
      { address: ETH_TOKEN, classHash: ERC20_CLASS.classHash },
      { address: STRK, classHash: ERC20_CLASS.classHash },
      { address: COUNTER, classHash: COUNTER_CLASS.classHash },
    ],
  });
  gw = await start({ port: 0, clock: new ManualClock(START_MS), keys: UNLIMITED_KEYS, chains: [seed] });
  url = gw.url('rollup-test');
  provider = await RpcProvider.create({ nodeUrl: url });
});
afterAll(() => gw.stop());

const rpc = async (method: string, params: unknown) => call(url, method, params);

describe('starknet.js 7 reads classes and state updates', () => {
  it("reads a contract's class and a class by hash as seeded", async () => {
    const cls: any = await provider.getClassAt(COUNTER);
    expect(cls.entry_points_by_type).toEqual(COUNTER_CLASS.contractClass.entry_points_by_type);
    expect(cls.sierra_program).toEqual(COUNTER_CLASS.contractClass.sierra_program);
    expect(cls.abi).toEqual(JSON.parse(COUNTER_CLASS.contractClass.abi)); // starknet.js parses the ABI text
    expect(((await provider.getClassByHash(ACCOUNT_CLASS.classHash)) as any).entry_points_by_type).toEqual(ACCOUNT_CLASS.contractClass.entry_points_by_type);
    expect(await new Account(provider, ALICE.address, ALICE.privateKey).getCairoVersion()).toBe('1');
    await expect(provider.getClassByHash('0x1234')).rejects.toThrow(/28|Class hash not found/);
    await expect(provider.getClassAt('0x1234')).rejects.toThrow(/20|Contract not found/);
  });

  it('reads the genesis state update', async () => {
    const u: any = await provider.getStateUpdate(0);
    expect(u.old_root).toBe('0x0');
    expect(u.state_diff.declared_classes).toHaveLength(3);
    expect(u.state_diff.deployed_contracts).toContainEqual({ address: COUNTER, class_hash: COUNTER_CLASS.classHash });
    await expect(provider.getStateUpdate(42)).rejects.toThrow(/Block not found/);
  });
});

describe('starknet.js 7 writes', () => {
  it('simulates an invoke with its default flags, changing nothing', async () => {
    const account = new Account(provider, ALICE.address, ALICE.privateKey, '1');
    const [sim]: any = await account.simulateTransaction([
      { type: 'INVOKE_FUNCTION', payload: { contractAddress: COUNTER, entrypoint: 'increase', calldata: [3] } } as any,
    ]);
    expect(sim.transaction_trace.type).toBe('INVOKE');
    expect(sim.transaction_trace.execute_invocation.calls[0]).toMatchObject({ contract_address: COUNTER, calldata: ['0x3'] });
    expect(sim.fee_estimation.unit).toBe('FRI');
    expect(await provider.getNonceForAddress(ALICE.address, 'pending')).toBe('0x0');
  });

  it('deploys a funded account, and refuses one with no funds (54)', async () => {
    const fresh = new Account(provider, NEW_ADDRESS, NEW_KEY, '1');
    const { transaction_hash, contract_address } = await fresh.deployAccount({
      classHash: ACCOUNT_CLASS.classHash,
      constructorCalldata: [NEW_PUBLIC],
      addressSalt: SALT,
    });
    expect(BigInt(contract_address)).toBe(BigInt(NEW_ADDRESS));
    await rpc('devnet_createBlock', {});
    const receipt: any = await provider.waitForTransaction(transaction_hash, { retryInterval: 50 });
    expect(receipt.isSuccess()).toBe(true);
    expect(receipt.value).toMatchObject({ type: 'DEPLOY_ACCOUNT', contract_address: NEW_ADDRESS, finality_status: 'ACCEPTED_ON_L2' });
    expect(await provider.getClassHashAt(NEW_ADDRESS)).toBe(ACCOUNT_CLASS.classHash);
    const trace: any = await provider.getTransactionTrace(transaction_hash);
    expect(trace).toMatchObject({
      type: 'DEPLOY_ACCOUNT',
      constructor_invocation: { contract_address: NEW_ADDRESS, calldata: [NEW_PUBLIC] },
      fee_transfer_invocation: { contract_address: STRK },
    });
    expect(trace.state_diff.deployed_contracts).toEqual([{ address: NEW_ADDRESS, class_hash: ACCOUNT_CLASS.classHash }]);
    const u: any = await provider.getStateUpdate('latest');
    expect(u.state_diff.deployed_contracts).toEqual([{ address: NEW_ADDRESS, class_hash: ACCOUNT_CLASS.classHash }]);
    expect(u.state_diff.nonces).toEqual([{ contract_address: NEW_ADDRESS, nonce: '0x1' }]);
    // the new account sends an invoke of its own
    const { transaction_hash: sent } = await fresh.execute({ contractAddress: COUNTER, entrypoint: 'increase', calldata: [1] });
    expect(((await provider.waitForTransaction(sent, { retryInterval: 50 })) as any).isSuccess()).toBe(true);

    const poor = new Account(provider, POOR_ADDRESS, NEW_KEY, '1');
    const bounds = {
      l1_gas: { max_amount: 10n ** 5n, max_price_per_unit: 10n ** 14n },
      l2_gas: { max_amount: 0n, max_price_per_unit: 0n },
      l1_data_gas: { max_amount: 0n, max_price_per_unit: 0n },
    };
    await expect(
      poor.deployAccount({ classHash: ACCOUNT_CLASS.classHash, constructorCalldata: [NEW_PUBLIC], addressSalt: '0x8' }, { resourceBounds: bounds } as any),
    ).rejects.toThrow(/54|balance/i);
    const undeclared = hash.calculateContractAddressFromHash(SALT, '0x99', [NEW_PUBLIC], 0);
    await expect(
      new Account(provider, undeclared, NEW_KEY, '1').deployAccount({ classHash: '0x99', constructorCalldata: [NEW_PUBLIC], addressSalt: SALT }, {
        resourceBounds: bounds,
      } as any),
    ).rejects.toThrow(/28|Class hash not found/);
  });

  it('declares a class, serves it, and refuses it a second time (51)', async () => {
    const account = new Account(provider, BOB.address, BOB.privateKey, '1');
    const cls = sierraClass('Vault', [{ name: 'deposit', inputs: [['amount', 'core::felt252']], outputs: [] }], []);
    const contract = { ...cls.contractClass, abi: cls.abi };
    const { transaction_hash, class_hash } = await account.declare({ contract: contract as any, compiledClassHash: cls.compiledClassHash });
    expect(class_hash).toBe(cls.classHash);
    expect(((await provider.waitForTransaction(transaction_hash, { retryInterval: 50 })) as any).value.type).toBe('DECLARE');
    expect(((await provider.getClass(cls.classHash, 'pending')) as any).entry_points_by_type).toEqual(cls.contractClass.entry_points_by_type);
    await expect(provider.getClass(cls.classHash, 'latest')).rejects.toThrow(/Class hash not found/);
    await expect(account.declare({ contract: contract as any, compiledClassHash: cls.compiledClassHash })).rejects.toThrow(/51|already declared/i);
    const trace: any = await provider.getTransactionTrace(transaction_hash);
    expect(trace).toMatchObject({ type: 'DECLARE', validate_invocation: { entry_point_selector: hash.getSelectorFromName('__validate_declare__') } });
    expect(trace.state_diff.declared_classes).toEqual([{ class_hash: cls.classHash, compiled_class_hash: cls.compiledClassHash }]);
    const tx: any = await provider.getTransactionByHash(transaction_hash);
    expect(tx).toMatchObject({ type: 'DECLARE', version: '0x3', class_hash: cls.classHash, compiled_class_hash: cls.compiledClassHash });
  });

  it('estimates an L1 -> L2 message fee in WEI', async () => {
    const msg = {
      from_address: '0xae0ee0a63a2ce6baeeffe56e7714fb4efe48d419',
      to_address: COUNTER,
      entry_point_selector: hash.getSelectorFromName('on_l1_message'),
      payload: ['0x5'],
    };
    const r: any = await provider.estimateMessageFee(msg as any);
    expect(r).toMatchObject({ unit: 'WEI', l1_gas_price: '0x' + WEI_PRICE.toString(16) });
    expect(BigInt(r.overall_fee)).toBe(BigInt(r.l1_gas_consumed) * WEI_PRICE);
    await expect(provider.estimateMessageFee({ ...msg, entry_point_selector: hash.getSelectorFromName('increase') } as any)).rejects.toThrow(
      /not an L1_HANDLER/,
    );
    const raw = await rpc('starknet_estimateMessageFee', {
      message: { from_address: '0xae0ee0a63a2ce6baeeffe56e7714fb4efe48d419', to_address: '0x1234', entry_point_selector: '0x1', payload: [] },
      block_id: 'latest',
    });
    expect(raw.error).toEqual({ code: 20, message: 'Contract not found' });
  });
});
