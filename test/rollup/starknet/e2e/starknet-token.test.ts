/**
 * Issue 27, "A Starknet transfer does nothing": the fee tokens are modelled natively. starknet.js 7,
 * unchanged, transfers STRK (balances of both sides move, the fee is charged from the STRK balance and
 * the sequencer gets it, OZ's Transfer event decodes with the token's ABI), approves and transfers from,
 * and an insufficient balance reverts with OZ's message while the fee is still charged. Balances are
 * the token's storage at OZ's addresses (starknet_getStorageAt reads them).
 */
import { Account, CallData, Contract, RpcProvider, cairo, hash, num } from 'starknet';
import { Account as Account10, RpcProvider as RpcProvider10 } from 'starknet10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { ACCOUNT_CLASS, ERC20_CLASS, SEED_CLASSES } from '../../classes.js';
import { ALICE, BOB, CAROL, ETH_TOKEN, SEQUENCER, START_MS, UNLIMITED_KEYS, testSeed } from '../../fixture.js';
import { invokeV1 } from '../../txs.js';
import { call } from '../../../support/http.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const ONE = 10n ** 18n;
const ADDRESS = 'core::starknet::contract_address::ContractAddress';
const U256 = 'core::integer::u256';
const OZ = 'openzeppelin_token::erc20::erc20::ERC20Component';

/** The OpenZeppelin Cairo ERC20's ABI, as far as the test uses it (events with #[key] fields, the component flattened). */
const ERC20_ABI = [
  {
    type: 'struct',
    name: U256,
    members: [
      { name: 'low', type: 'core::integer::u128' },
      { name: 'high', type: 'core::integer::u128' },
    ],
  },
  {
    type: 'interface',
    name: 'openzeppelin_token::erc20::interface::IERC20Mixin',
    items: [
      { type: 'function', name: 'balance_of', inputs: [{ name: 'account', type: ADDRESS }], outputs: [{ type: U256 }], state_mutability: 'view' },
      {
        type: 'function',
        name: 'allowance',
        inputs: [
          { name: 'owner', type: ADDRESS },
          { name: 'spender', type: ADDRESS },
        ],
        outputs: [{ type: U256 }],
        state_mutability: 'view',
      },
      { type: 'function', name: 'total_supply', inputs: [], outputs: [{ type: U256 }], state_mutability: 'view' },
    ],
  },
  {
    type: 'event',
    name: `${OZ}::Transfer`,
    kind: 'struct',
    members: [
      { name: 'from', type: ADDRESS, kind: 'key' },
      { name: 'to', type: ADDRESS, kind: 'key' },
      { name: 'value', type: U256, kind: 'data' },
    ],
  },
  {
    type: 'event',
    name: `${OZ}::Approval`,
    kind: 'struct',
    members: [
      { name: 'owner', type: ADDRESS, kind: 'key' },
      { name: 'spender', type: ADDRESS, kind: 'key' },
      { name: 'value', type: U256, kind: 'data' },
    ],
  },
  {
    type: 'event',
    name: `${OZ}::Event`,
    kind: 'enum',
    variants: [
      { name: 'Transfer', type: `${OZ}::Transfer`, kind: 'nested' },
      { name: 'Approval', type: `${OZ}::Approval`, kind: 'nested' },
    ],
  },
  { type: 'event', name: 'devgate::FeeToken::Event', kind: 'enum', variants: [{ name: 'ERC20Event', type: `${OZ}::Event`, kind: 'flat' }] },
];

let gw: Gateway;
let url: string;
let provider: RpcProvider;
let strk: Contract;

beforeAll(async () => {
  const seed = testSeed({
    classes: SEED_CLASSES,
    accounts: (testSeed().accounts as Record<string, unknown>[]).map((a) => ({ ...a, classHash: ACCOUNT_CLASS.classHash })),
    contracts: [
      { address: ETH_TOKEN, classHash: ERC20_CLASS.classHash },
      { address: STRK, classHash: ERC20_CLASS.classHash },
    ],
  });
  gw = await start({ port: 0, clock: new ManualClock(START_MS), keys: UNLIMITED_KEYS, chains: [seed] });
  url = gw.url('rollup-test');
  provider = await RpcProvider.create({ nodeUrl: url });
  strk = new Contract(ERC20_ABI, STRK, provider);
});
afterAll(() => gw.stop());

const rpc = (method: string, params: unknown) => call(url, method, params);
const balanceOf = async (who: string, token = STRK): Promise<bigint> => {
  const [low, high] = await provider.callContract({ contractAddress: token, entrypoint: 'balanceOf', calldata: [who] }, 'pending');
  return BigInt(low!) + (BigInt(high!) << 128n);
};
const account = (a: { address: string; privateKey: string }) => new Account(provider, a.address, a.privateKey, '1');
const transfer = (to: string, amount: bigint) => ({ contractAddress: STRK, entrypoint: 'transfer', calldata: CallData.compile([to, cairo.uint256(amount)]) });
const mined = async (hash: string): Promise<any> => {
  await rpc('devnet_createBlock', {});
  return provider.waitForTransaction(hash, { retryInterval: 50 });
};

describe('a STRK transfer with starknet.js 7', () => {
  it("moves both balances, charges the fee from the sender's STRK to the sequencer, and emits OZ's Transfer", async () => {
    const [alice0, bob0, seq0] = await Promise.all([balanceOf(ALICE.address), balanceOf(BOB.address), balanceOf(SEQUENCER)]);
    const { transaction_hash } = await account(ALICE).execute(transfer(BOB.address, ONE));
    const receipt = await mined(transaction_hash);
    expect(receipt.isSuccess()).toBe(true);
    const fee = BigInt(receipt.value.actual_fee.amount);
    expect(receipt.value.actual_fee.unit).toBe('FRI');
    expect(fee).toBeGreaterThan(0n);
    expect(await balanceOf(BOB.address)).toBe(bob0 + ONE);
    expect(await balanceOf(ALICE.address)).toBe(alice0 - ONE - fee);
    expect(await balanceOf(SEQUENCER)).toBe(seq0 + fee);

    const events = receipt.value.events;
    expect(events).toEqual([
      {
        from_address: STRK,
        keys: [num.toHex(hash.getSelectorFromName('Transfer')), ALICE.address, BOB.address].map((k) => num.toHex(k)),
        data: ['0xde0b6b3a7640000', '0x0'],
      },
    ]);
    const parsed = strk.parseEvents(receipt);
    expect(parsed).toHaveLength(1);
    const t = parsed[0]![`${OZ}::Transfer`] as Record<string, bigint>;
    expect({ from: num.toHex(t.from!), to: num.toHex(t.to!), value: t.value }).toEqual({ from: ALICE.address, to: BOB.address, value: ONE });
  });

  it("keeps balances as the token's storage at OZ's addresses (low, then high at +1)", async () => {
    const key = BigInt(hash.computePedersenHash(hash.starknetKeccak('ERC20_balances'), BOB.address)) % ((1n << 251n) - 256n);
    const low = await provider.getStorageAt(STRK, num.toHex(key), 'pending');
    const high = await provider.getStorageAt(STRK, num.toHex(key + 1n), 'pending');
    expect(BigInt(low) + (BigInt(high) << 128n)).toBe(await balanceOf(BOB.address));
    const supply = await strk.call('total_supply', [], { blockIdentifier: 'pending' } as any);
    expect(supply).toBeGreaterThan(0n);
  });

  it('approve then transferFrom moves the balance and spends the allowance', async () => {
    const [alice0, carol0] = await Promise.all([balanceOf(ALICE.address), balanceOf(CAROL.address)]);
    const approve = { contractAddress: STRK, entrypoint: 'approve', calldata: CallData.compile([CAROL.address, cairo.uint256(5n * ONE)]) };
    const approved = await mined((await account(ALICE).execute(approve)).transaction_hash);
    expect(strk.parseEvents(approved)[0]).toHaveProperty(`${OZ}::Approval`);
    const aliceFee = BigInt(approved.value.actual_fee.amount);
    expect(await strk.call('allowance', [ALICE.address, CAROL.address], { blockIdentifier: 'pending' } as any)).toBe(5n * ONE);

    const from = { contractAddress: STRK, entrypoint: 'transferFrom', calldata: CallData.compile([ALICE.address, CAROL.address, cairo.uint256(3n * ONE)]) };
    const moved = await mined((await account(CAROL).execute(from)).transaction_hash);
    expect(moved.isSuccess()).toBe(true);
    const carolFee = BigInt(moved.value.actual_fee.amount);
    expect(strk.parseEvents(moved).map((e) => Object.keys(e)[0])).toEqual([`${OZ}::Approval`, `${OZ}::Transfer`]);
    expect(await strk.call('allowance', [ALICE.address, CAROL.address], { blockIdentifier: 'pending' } as any)).toBe(2n * ONE);
    expect(await balanceOf(ALICE.address)).toBe(alice0 - aliceFee - 3n * ONE);
    expect(await balanceOf(CAROL.address)).toBe(carol0 - carolFee + 3n * ONE);

    // More than allowed: reverted with OZ's message.
    const tooMuch = { ...from, calldata: CallData.compile([ALICE.address, CAROL.address, cairo.uint256(3n * ONE)]) };
    await expect(account(CAROL).estimateInvokeFee(tooMuch)).rejects.toThrow(/ERC20: insufficient allowance/);
  });

  it("reverts a transfer beyond the balance with OZ's message, charging the fee and moving the nonce", async () => {
    const bob0 = await balanceOf(BOB.address);
    const carol0 = await balanceOf(CAROL.address);
    const nonce0 = BigInt(await provider.getNonceForAddress(BOB.address, 'pending'));
    const tooMuch = transfer(CAROL.address, bob0 + 1n);
    // The estimate refuses it (as a Starknet node does); sent with explicit bounds, it is included and REVERTED.
    await expect(account(BOB).estimateInvokeFee(tooMuch)).rejects.toThrow(/ERC20: insufficient balance/);
    const { resourceBounds } = await account(BOB).estimateInvokeFee(transfer(CAROL.address, 1n));
    const { transaction_hash } = await account(BOB).execute(tooMuch, { resourceBounds } as any);
    const receipt = await mined(transaction_hash);
    expect(receipt.isReverted()).toBe(true);
    expect(receipt.value.execution_status).toBe('REVERTED');
    expect(receipt.value.revert_reason).toContain("'ERC20: insufficient balance'");
    expect(receipt.value.events).toEqual([]);
    const fee = BigInt(receipt.value.actual_fee.amount);
    expect(fee).toBeGreaterThan(0n);
    expect(await balanceOf(BOB.address)).toBe(bob0 - fee);
    expect(await balanceOf(CAROL.address)).toBe(carol0);
    expect(BigInt(await provider.getNonceForAddress(BOB.address, 'pending'))).toBe(nonce0 + 1n);
    const status: any = await provider.getTransactionStatus(transaction_hash);
    expect(status).toMatchObject({ execution_status: 'REVERTED', failure_reason: expect.stringContaining('ERC20: insufficient balance') });
  });

  it('v1 pays its fee in ETH from the ETH token balance', async () => {
    const [eth0, strk0] = await Promise.all([balanceOf(CAROL.address, ETH_TOKEN), balanceOf(CAROL.address)]);
    const nonce = Number(await provider.getNonceForAddress(CAROL.address, 'pending'));
    const sent = await rpc('starknet_addInvokeTransaction', [invokeV1(CAROL, [{ to: STRK, entrypoint: 'transfer', calldata: [BOB.address, 7n, 0n] }], nonce)]);
    const { transaction_hash } = sent.result as { transaction_hash: string };
    const receipt = await mined(transaction_hash);
    expect(receipt.value.actual_fee.unit).toBe('WEI');
    expect(await balanceOf(CAROL.address, ETH_TOKEN)).toBe(eth0 - BigInt(receipt.value.actual_fee.amount));
    expect(await balanceOf(CAROL.address)).toBe(strk0 - 7n);
  });
});

describe('a STRK transfer with starknet.js 10 (spec 0.9)', () => {
  it('moves both balances and emits Transfer', async () => {
    const provider10 = await RpcProvider10.create({ nodeUrl: `${url}/rpc/v0_9` });
    const alice = new Account10({ provider: provider10, address: ALICE.address, signer: ALICE.privateKey, cairoVersion: '1' });
    const [alice0, bob0] = await Promise.all([balanceOf(ALICE.address), balanceOf(BOB.address)]);
    const { transaction_hash } = await alice.execute(transfer(BOB.address, 2n * ONE));
    const receipt: any = await provider10.waitForTransaction(transaction_hash, { retryInterval: 50, successStates: ['PRE_CONFIRMED'] } as any);
    expect(receipt.value.execution_status).toBe('SUCCEEDED');
    expect(receipt.value.events).toHaveLength(1);
    expect(receipt.value.events[0].keys[0]).toBe(num.toHex(hash.getSelectorFromName('Transfer')));
    expect(await balanceOf(BOB.address)).toBe(bob0 + 2n * ONE);
    expect(await balanceOf(ALICE.address)).toBe(alice0 - 2n * ONE - BigInt(receipt.value.actual_fee.amount));
  });
});
