/**
 * The data directory in-process: a chain mined, edited, reverted and stopped comes back from the directory with
 * every block, receipt, proof, pool transaction, edit and mining setting as it was answered; a foreign, corrupt or
 * other-seed directory is refused with a clear error; anvil_reset after a restart goes back to the seed's chain.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { hexToBytes } from '@ethereumjs/util';
import { createPublicClient, createWalletClient, http, type Abi, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../src/index.js';
import { ALICE, increase, START_MS, testSeed, UNLIMITED_KEYS } from '../rollup/fixture.js';
import { invokeV1 } from '../rollup/txs.js';
import { call } from '../support/http.js';

const SEED = 'test/fixtures/eth/small.json';
const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'devgate-datadir-'));
  dirs.push(d);
  return d;
};
afterAll(() =>
  dirs.forEach((d) => {
    rmSync(d, { recursive: true, force: true });
  }),
);

const open = (dataDir: string, extra: Record<string, unknown> = {}) => start({ port: 0, chains: [SEED], cache: false, dataDir, ...extra });
const rpc = async (gw: Gateway, method: string, params: unknown[] = []) => {
  const res = await call(gw.url('small'), method, params);
  if (res.error !== undefined) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
  return res.result;
};
const SINK = '0x00000000000000000000000000000000000000c1';
const token = JSON.parse(readFileSync(new URL('../../chains/contracts/Token.json', import.meta.url), 'utf8')) as { abi: Abi; bytecode: Hex };

/** Every block's hash and state root, head to genesis. */
async function chainOf(gw: Gateway): Promise<{ hash: string; stateRoot: string }[]> {
  const head = Number(await rpc(gw, 'eth_blockNumber'));
  const out = [];
  for (let n = 0; n <= head; n++) {
    const b = await rpc(gw, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
    out.push({ hash: b.hash, stateRoot: b.stateRoot });
  }
  return out;
}

async function proofVerifies(gw: Gateway, address: string, block: string): Promise<void> {
  const b = await rpc(gw, 'eth_getBlockByNumber', [block, false]);
  const p = await rpc(gw, 'eth_getProof', [address, [], block]);
  const key = hexToBytes(address as `0x${string}`);
  const value = await verifyMerkleProof(
    key,
    p.accountProof.map((n: string) => hexToBytes(n as `0x${string}`)),
    { useKeyHashing: true, root: hexToBytes(b.stateRoot) } as never,
  );
  expect(value).not.toBeNull();
}

describe('data directory', () => {
  it('restores blocks, receipts, pool, edits and mining settings after a stop', async () => {
    const dir = fresh();
    let gw = await open(dir);
    const [from] = await rpc(gw, 'eth_accounts');
    const seeded = await chainOf(gw);
    const poolBefore = await rpc(gw, 'txpool_content');
    const hashes: string[] = [];
    for (let i = 0; i < 3; i++) hashes.push(await rpc(gw, 'eth_sendTransaction', [{ from, to: SINK, value: '0x1' }]));
    const receipts = await Promise.all(hashes.map((h) => rpc(gw, 'eth_getTransactionReceipt', [h])));
    const snap = await rpc(gw, 'evm_snapshot');
    await rpc(gw, 'evm_mine');
    await rpc(gw, 'evm_revert', [snap]);
    await rpc(gw, 'anvil_setBalance', [SINK, '0x1234']);
    await rpc(gw, 'evm_setAutomine', [false]);
    await rpc(gw, 'eth_sendTransaction', [{ from, to: SINK, value: '0x2' }]);
    const before = await chainOf(gw);
    const pool = await rpc(gw, 'txpool_content');
    await gw.stop();

    gw = await open(dir);
    expect(await chainOf(gw)).toEqual(before);
    for (const r of receipts) expect(await rpc(gw, 'eth_getTransactionReceipt', [r.transactionHash])).toEqual(r);
    expect(await rpc(gw, 'txpool_content')).toEqual(pool);
    expect(await rpc(gw, 'eth_getBalance', [SINK, 'latest'])).toBe('0x1234');
    expect(await rpc(gw, 'anvil_getAutomine')).toBe(false);
    // (Head carries the unmined edit: a proof at its number answers the edited state, so older blocks here.)
    for (const r of receipts.slice(0, 2)) await proofVerifies(gw, from, r.blockNumber);
    // Mining goes on from the restored head, with the edit committed into the next block.
    await rpc(gw, 'evm_mine');
    expect(await rpc(gw, 'eth_getBalance', [SINK, 'latest'])).toBe(`0x${(0x1234 + 2).toString(16)}`);
    await proofVerifies(gw, SINK, 'latest');
    const afterMine = await chainOf(gw);
    // anvil_reset goes back to the seed's chain, not to the restarted one.
    await rpc(gw, 'anvil_reset');
    expect(await chainOf(gw)).toEqual(seeded);
    expect(await rpc(gw, 'txpool_content')).toEqual(poolBefore);
    await gw.stop();

    gw = await open(dir);
    expect(await chainOf(gw)).toEqual(seeded);
    expect(afterMine.length).toBe(before.length + 1);
    await gw.stop();
  });

  it('unchanged viem clients: a deployed contract, its receipt and its state are there after a restart', async () => {
    const dir = fresh();
    let gw = await open(dir);
    const account = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 4 });
    const chain = {
      id: 31337,
      name: 'small',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [gw.url('small')] } },
    } as const;
    const wallet = createWalletClient({ account, chain, transport: http(gw.url('small')) });
    let client = createPublicClient({ chain, transport: http(gw.url('small')), cacheTime: 0 });
    const deploy = await wallet.deployContract({ abi: token.abi, bytecode: token.bytecode, args: [] });
    const deployed = await client.waitForTransactionReceipt({ hash: deploy });
    const transfer = await wallet.writeContract({ address: deployed.contractAddress!, abi: token.abi, functionName: 'transfer', args: [SINK, 77n] });
    const receipt = await client.waitForTransactionReceipt({ hash: transfer });
    await gw.stop();

    gw = await open(dir);
    client = createPublicClient({ chain, transport: http(gw.url('small')), cacheTime: 0 });
    expect(await client.getTransactionReceipt({ hash: transfer })).toEqual(receipt);
    expect(await client.readContract({ address: deployed.contractAddress!, abi: token.abi, functionName: 'balanceOf', args: [SINK] })).toBe(77n);
    expect(
      await client.readContract({
        address: deployed.contractAddress!,
        abi: token.abi,
        functionName: 'balanceOf',
        args: [SINK],
        blockNumber: receipt.blockNumber - 1n,
      }),
    ).toBe(0n);
    await gw.stop();
  });

  it('keeps controls that do not mine (time, impersonation) once they are answered', async () => {
    const dir = fresh();
    let gw = await open(dir);
    const whale = '0x00000000000000000000000000000000000000d1';
    await rpc(gw, 'anvil_setBalance', [whale, '0xde0b6b3a7640000']);
    await rpc(gw, 'evm_mine');
    await rpc(gw, 'anvil_impersonateAccount', [whale]);
    await rpc(gw, 'evm_increaseTime', ['0x3e8']);
    const head = await rpc(gw, 'eth_getBlockByNumber', ['latest', false]);
    await gw.stop();

    gw = await open(dir);
    const hash = await rpc(gw, 'eth_sendTransaction', [{ from: whale, to: SINK, value: '0x5' }]);
    const receipt = await rpc(gw, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.from).toBe(whale);
    const block = await rpc(gw, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
    // evm_increaseTime moves the next block's time by exactly its amount, as anvil and hardhat do.
    expect(BigInt(block.timestamp) - BigInt(head.timestamp)).toBe(1000n);
    await rpc(gw, 'evm_setAutomine', [false]);
    await gw.stop();
    // A mining mode given to the new start wins over the stored one.
    gw = await open(dir, { mining: { automine: true } });
    expect(await rpc(gw, 'anvil_getAutomine')).toBe(true);
    await gw.stop();
    gw = await open(dir);
    expect(await rpc(gw, 'anvil_getAutomine')).toBe(true);
    await gw.stop();
  });

  it('keeps a rollup network: sealed blocks, statuses, receipts and the pool come back after a stop', async () => {
    const dir = fresh();
    const clock = new ManualClock(START_MS);
    const openRollup = () => start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [testSeed()], cache: false, dataDir: dir });
    let gw = await openRollup();
    let url = gw.url('rollup-test');
    const first = (await call(url, 'rollup_addInvokeTransaction', { invoke_transaction: invokeV1(ALICE, increase(1), 0) })).result.transaction_hash;
    clock.advance(30_000);
    await call(url, 'devnet_createBlock', {});
    await call(url, 'devnet_acceptOnL1', { block_id: 'latest' });
    const second = (await call(url, 'rollup_addInvokeTransaction', { invoke_transaction: invokeV1(ALICE, increase(2), 1) })).result.transaction_hash;
    const block = (await call(url, 'rollup_getBlockWithTxHashes', { block_id: { block_number: 1 } })).result;
    const receipt = (await call(url, 'rollup_getTransactionReceipt', { transaction_hash: first })).result;
    const pending = (await call(url, 'rollup_getBlockWithTxHashes', { block_id: 'pending' })).result;
    expect(block.status).toBe('ACCEPTED_ON_L1');
    await gw.stop();

    gw = await openRollup();
    url = gw.url('rollup-test');
    expect((await call(url, 'rollup_getBlockWithTxHashes', { block_id: { block_number: 1 } })).result).toEqual(block);
    expect((await call(url, 'rollup_getTransactionReceipt', { transaction_hash: first })).result).toEqual(receipt);
    expect((await call(url, 'rollup_getBlockWithTxHashes', { block_id: 'pending' })).result.transactions).toEqual(pending.transactions);
    expect(pending.transactions).toEqual([second]);
    await gw.stop();
  });

  it('refuses a directory of other files, a corrupt store and another seed, naming the problem', async () => {
    const other = fresh();
    writeFileSync(join(other, 'notes.txt'), 'hello');
    await expect(open(other)).rejects.toThrow(/is not a devgate data directory \(it holds notes\.txt\)/);

    const corrupt = fresh();
    writeFileSync(join(corrupt, 'chains.mdb'), Buffer.alloc(64 * 1024, 7));
    await expect(open(corrupt)).rejects.toThrow(/is not a readable devgate data store/);

    const dir = fresh();
    const gw = await open(dir);
    await gw.stop();
    const seedDir = fresh();
    const seed = JSON.parse(readFileSync(SEED, 'utf8'));
    seed.genesis.timestamp = '0x6553f101';
    mkdirSync(seedDir, { recursive: true });
    writeFileSync(join(seedDir, 'small.json'), JSON.stringify(seed));
    await expect(start({ port: 0, chains: [join(seedDir, 'small.json')], cache: false, dataDir: dir })).rejects.toThrow(
      /holds the chain of genesis 0x[0-9a-f]{64} \(chain id 31337\), the seed .* gives genesis 0x[0-9a-f]{64}/,
    );
  });

  it('refuses a directory another devgate holds', async () => {
    const dir = fresh();
    const gw = await open(dir);
    try {
      await expect(open(dir)).rejects.toThrow(/already open in this process|in use by another devgate/);
    } finally {
      await gw.stop();
    }
  });
});
