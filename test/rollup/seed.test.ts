/** The rollup seed format and the shipped chain: validation naming the bad field, every status shipped, ready accounts. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RpcProvider } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, SeedError, SHIPPED_CHAINS, start, type Gateway } from '../../src/index.js';
import { parseSeed } from '../../src/seed/load.js';
import { call } from '../support/http.js';
import { START_MS, UNLIMITED_KEYS, increase, testSeed } from './fixture.js';
import { DEV_ACCOUNTS, L1_RECEIVER, starknetMainnetSeed, UNDEPLOYED_ADDRESS, UNDEPLOYED_KEY, UNDEPLOYED_PUBLIC_KEY } from './make-starknet-seed.js';
import { invokeV1, invokeV3, starknetJsHash } from './txs.js';
import { Account as Account10, RpcProvider as RpcProvider10, hash as hash10 } from 'starknet10';
import { ACCOUNT_CLASS } from './classes.js';

const SHIPPED = fileURLToPath(new URL('../../chains/starknet-mainnet.json', import.meta.url));
const [alice, bob, carol] = DEV_ACCOUNTS as [(typeof DEV_ACCOUNTS)[0], (typeof DEV_ACCOUNTS)[0], (typeof DEV_ACCOUNTS)[0]];

describe('rollup seed validation', () => {
  it('names the bad field', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ chainId: 'SN MAIN' }, /chainId: a short string/],
      [{ sequencerAddress: '0x' + 'f'.repeat(64) }, /sequencerAddress: not a felt: at least the field prime/],
      [{ gasPrices: { wei: '0x1', fri: '0x0' } }, /gasPrices.wei: must be a whole number of gwei/],
      [{ gasPrices: { wei: '0x' + 'f'.repeat(40), fri: '0x0' } }, /gasPrices.wei: more than 128 bits/],
      [{ l1Acceptance: { kind: 'time' } }, /l1Acceptance.delayMs/],
      [
        {
          blocks: [
            { timestamp: 5, status: 'ACCEPTED_ON_L2' },
            { timestamp: 6, status: 'ACCEPTED_ON_L1' },
          ],
        },
        /blocks\[1\].status: ACCEPTED_ON_L1 after an ACCEPTED_ON_L2 block/,
      ],
      [{ blocks: [{ timestamp: 5, status: 'REJECTED' }] }, /blocks\[0\].status: the genesis block cannot be rejected/],
      [{ blocks: [{ timestamp: 5 }, { timestamp: 4 }] }, /blocks\[1\].timestamp: before the previous block's timestamp/],
      [{ contracts: [{ address: DEV_ACCOUNTS[0]!.address, classHash: '0x1' }] }, /contracts\[0\].address: address .* is listed twice/],
      [{ pending: [{ transaction: { type: 'INVOKE', version: '0x2' } }] }, /pending\[0\].transaction.version/],
      [{ prefix: 'rollup' }, /prefix: rollup and devnet are taken/],
    ];
    for (const [overrides, message] of cases) expect(() => parseSeed(testSeed(overrides), 'test'), message.source).toThrow(message);
  });

  it('refuses a seed whose transactions do not apply, naming the transaction', async () => {
    const tx = invokeV1(alice, increase(1), 1);
    await expect(start({ port: 0, chains: [testSeed({ blocks: [{ timestamp: 5, transactions: [{ transaction: tx }] }] })] })).rejects.toThrow(
      /invalid rollup seed rollup-test: blocks\[0\]\.transactions\[0\]: Invalid transaction nonce: "Invalid transaction nonce. Expected: 0x0, got: 0x1"/,
    );
    const unsigned = { ...invokeV1(alice, increase(1), 0), signature: [] };
    await expect(start({ port: 0, chains: [testSeed({ pending: [{ transaction: unsigned }] })] })).rejects.toThrow(SeedError);
  });
});

describe('the shipped starknet-mainnet chain', () => {
  let gw: Gateway;
  let url: string;
  const clock = new ManualClock(START_MS);
  const seed = starknetMainnetSeed() as any;
  const txHash = (block: number, i = 0) => starknetJsHash(seed.blocks[block].transactions[i].transaction);

  beforeAll(async () => {
    gw = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [SHIPPED] });
    url = gw.url('starknet-mainnet');
  });
  afterAll(() => gw.stop());

  it('is what the generator makes, and is shipped', () => {
    expect(JSON.parse(readFileSync(SHIPPED, 'utf8'))).toEqual(seed);
    expect(SHIPPED_CHAINS).toContain(SHIPPED);
    expect(gw.networks).toContainEqual({ name: 'starknet-mainnet', kind: 'rollup', chainId: 'SN_MAIN' });
  });

  it('has blocks in every status, a pending block, and receipts with events and messages', async () => {
    const statuses = [];
    for (let n = 0; n <= 4; n++) statuses.push((await call(url, 'rollup_getBlockWithTxHashes', [{ block_number: n }])).result.status);
    expect(statuses).toEqual(['ACCEPTED_ON_L1', 'ACCEPTED_ON_L1', 'ACCEPTED_ON_L1', 'ACCEPTED_ON_L2', 'ACCEPTED_ON_L2']);
    expect((await call(url, 'rollup_getTransactionReceipt', [txHash(4)])).result).toMatchObject({ status: 'REJECTED', block_number: 4 });
    expect((await call(url, 'rollup_getTransactionReceipt', [txHash(5)])).result).toMatchObject({ status: 'ACCEPTED_ON_L2', block_number: 4 });
    const pending = (await call(url, 'rollup_getBlockWithTxHashes', ['pending'])).result;
    expect(pending).toMatchObject({ status: 'PENDING', transactions: [starknetJsHash(seed.pending[0].transaction)] });
    const receipt = (await call(url, 'rollup_getTransactionReceipt', [txHash(2)])).result;
    expect(receipt.messages_sent).toEqual([{ from_address: expect.any(String), to_address: L1_RECEIVER, payload: ['0x5', bob.address] }]);
    expect(receipt.events).toHaveLength(1);
    expect((await call(url, 'rollup_getTransactionReceipt', [txHash(1)])).result.events[0].keys).toHaveLength(1);
  });

  it('is read by a real client: starknet.js RpcProvider', async () => {
    const provider = new RpcProvider({ nodeUrl: url });
    expect(await provider.getChainId()).toBe('0x534e5f4d41494e');
    expect(await provider.getBlockNumber()).toBe(4);
    const block: any = await provider.getBlockWithTxHashes(2);
    expect(block).toMatchObject({ status: 'ACCEPTED_ON_L1', block_number: 2, transactions: [txHash(2)] });
    const receipt: any = await provider.getTransactionReceipt(txHash(2));
    expect(receipt).toMatchObject({ transaction_hash: txHash(2), finality_status: 'ACCEPTED_ON_L1', block_hash: block.block_hash });
    expect(receipt.isSuccess()).toBe(true);
    const pending: any = await provider.getBlockWithTxHashes('pending');
    expect(pending.transactions).toEqual([starknetJsHash(seed.pending[0].transaction)]);
    expect(pending.block_hash).toBeUndefined();
  });

  it('has accounts ready for fee estimates at their next nonces', async () => {
    const request = [
      invokeV1(alice, increase(1), 2, { query: true }),
      invokeV3(bob, increase(1), 2, { query: true }),
      invokeV1(carol, increase(1), 1, { query: true }),
    ];
    const r = await call(url, 'rollup_estimateFee', { request, block_id: 'pending' });
    expect(r.result).toHaveLength(3);
    const latest = await call(url, 'rollup_estimateFee', { request: [request[2]], block_id: 'latest' });
    expect(latest.error.data.revert_error).toBe('Invalid transaction nonce. Expected: 0x0, got: 0x1');
  });

  it("funds the documented undeployed key's account address, which starknet.js 10 deploys on the 0.9 path", async () => {
    expect(UNDEPLOYED_ADDRESS).toBe(hash10.calculateContractAddressFromHash(UNDEPLOYED_PUBLIC_KEY, ACCOUNT_CLASS.classHash, [UNDEPLOYED_PUBLIC_KEY], 0));
    const provider = new RpcProvider10({ nodeUrl: url + '/rpc/v0_9' });
    const fresh = new Account10({ provider, address: UNDEPLOYED_ADDRESS, signer: UNDEPLOYED_KEY, cairoVersion: '1' });
    const { contract_address } = await fresh.deployAccount({
      classHash: ACCOUNT_CLASS.classHash,
      constructorCalldata: [UNDEPLOYED_PUBLIC_KEY],
      addressSalt: UNDEPLOYED_PUBLIC_KEY,
    });
    expect(BigInt(contract_address)).toBe(BigInt(UNDEPLOYED_ADDRESS));
    expect(await provider.getClassHashAt(UNDEPLOYED_ADDRESS, 'pre_confirmed')).toBe(ACCOUNT_CLASS.classHash);
  });

  it('accepts its ACCEPTED_ON_L2 blocks on L1 ten minutes after start', async () => {
    clock.advance(599_999);
    expect((await call(url, 'rollup_getBlockWithTxHashes', ['latest'])).result.status).toBe('ACCEPTED_ON_L2');
    clock.advance(1);
    expect((await call(url, 'rollup_getBlockWithTxHashes', ['latest'])).result.status).toBe('ACCEPTED_ON_L1');
    expect((await call(url, 'rollup_getBlockWithTxHashes', [{ block_number: 3 }])).result.status).toBe('ACCEPTED_ON_L1');
    expect((await call(url, 'rollup_getTransactionReceipt', [txHash(4)])).result.status).toBe('REJECTED');
    expect((await call(url, 'rollup_getBlockWithTxHashes', ['pending'])).result.status).toBe('PENDING');
  });
});
