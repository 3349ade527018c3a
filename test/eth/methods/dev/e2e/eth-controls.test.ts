/**
 * Test controls with viem's testClient, unchanged, in anvil and hardhat modes: snapshot / revert (blocks, state,
 * pool, time), state edits seen at once and committed by the next block, reset to the seeded chain; every index
 * forgets reverted blocks, and a block number reused after a revert answers the new block.
 */
import { createPublicClient, createTestClient, createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';
import { call } from '../../../../support/http.js';

const KEY3 = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6' as const;
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as const;
const WHO = '0x00000000000000000000000000000000000000d1' as const;
const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };

let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
});
afterAll(() => gw.stop());

describe.each(['anvil', 'hardhat'] as const)('testClient in %s mode', (mode) => {
  it('snapshot and revert restore blocks, state, pool and time; the reverted blocks are gone from every index', async () => {
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    const test = createTestClient({ chain, mode, transport: http(url) });
    const wallet = createWalletClient({ account: privateKeyToAccount(KEY3), chain, transport: http(url) });
    const before = await client.getBlock();
    const balanceBefore = await client.getBalance({ address: WHO });
    const id = await test.snapshot();
    expect(id).toMatch(/^0x[0-9a-f]+$/);

    const sent = await wallet.sendTransaction({ to: WHO, value: 1000n });
    await test.increaseTime({ seconds: 3600 });
    await test.mine({ blocks: 2 });
    await test.setAutomine(false);
    const queued = await wallet.sendTransaction({ to: WHO, value: 1n });
    const mined = await client.getBlock();
    expect(mined.number).toBe(before.number + 3n);
    expect(await client.getBalance({ address: WHO })).toBe(balanceBefore + 1000n);

    await test.revert({ id });
    expect(await client.getBlockNumber()).toBe(before.number);
    expect((await client.getBlock()).hash).toBe(before.hash);
    expect(await client.getBalance({ address: WHO })).toBe(balanceBefore);
    expect(await client.getTransactionReceipt({ hash: sent }).catch(() => null)).toBeNull();
    expect(await client.getTransaction({ hash: queued }).catch(() => null)).toBeNull();
    expect((await call(url, 'eth_getBlockByHash', [mined.hash, false])).result).toBeNull();
    expect((await call(url, 'eth_getBlockByNumber', [`0x${mined.number.toString(16)}`, false])).result).toBeNull();
    // Automine is back on (the snapshot saw it on), and time as it was: the next block is 12 s after head.
    // The pool is back as the snapshot saw it (the seed's pending transactions, on the first pass): they are mined with the send.
    const pooled = (await client.getBlock({ blockTag: 'pending' })).transactions;
    const again = await wallet.sendTransaction({ to: WHO, value: 7n });
    const reused = await client.getBlock({ blockNumber: before.number + 1n });
    expect(reused.transactions).toEqual([...pooled, again]);
    expect(reused.timestamp).toBe(before.timestamp + 12n);
    expect((await call(url, 'eth_getBlockByNumber', [`0x${reused.number.toString(16)}`, false])).result.hash).toBe(reused.hash);
    // The snapshot is spent.
    expect(await call(url, mode === 'anvil' ? 'anvil_revert' : 'evm_revert', [id])).toMatchObject({ result: false });
  });

  it('setBalance, setNonce, setCode, setStorageAt are seen at latest and pending at once, and committed by the next block', async () => {
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    const test = createTestClient({ chain, mode, transport: http(url) });
    const head = await client.getBlock();
    await test.setBalance({ address: WHO, value: 123_456_789n });
    await test.setNonce({ address: WHO, nonce: 42 });
    await test.setCode({ address: WHO, bytecode: '0x60016000526001601ff3' });
    await test.setStorageAt({ address: TOKEN, index: 7, value: `0x${'ab'.repeat(32)}` as Hex });
    expect(await client.getBlockNumber()).toBe(head.number);
    for (const blockTag of ['latest', 'pending'] as const) {
      expect(await client.getBalance({ address: WHO, blockTag })).toBe(123_456_789n);
      expect(await client.getTransactionCount({ address: WHO, blockTag })).toBe(42);
      expect(await client.getCode({ address: WHO, blockTag })).toBe('0x60016000526001601ff3');
      expect(await client.getStorageAt({ address: TOKEN, slot: '0x7', blockTag })).toBe(`0x${'ab'.repeat(32)}`);
    }
    expect(await client.call({ to: WHO })).toEqual({ data: '0x01' });
    await test.mine({ blocks: 1 });
    const next = await client.getBlock();
    expect(next.stateRoot).not.toBe(head.stateRoot);
    expect(await client.getBalance({ address: WHO, blockNumber: next.number })).toBe(123_456_789n);
    expect(await client.getBalance({ address: WHO, blockNumber: head.number })).not.toBe(123_456_789n);
  });

  it('reset goes back to the seeded chain', async () => {
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    const test = createTestClient({ chain, mode, transport: http(url) });
    await test.mine({ blocks: 2 });
    await test.reset();
    expect(await client.getBlockNumber()).toBe(40n);
    expect(await client.getCode({ address: WHO })).toBeUndefined();
    // The seed's pending transactions are back in the pool.
    expect((await client.getBlock({ blockTag: 'pending' })).transactions.length).toBeGreaterThan(0);
  });
});

describe('refusals', () => {
  it('anvil_setChainId and a bad forking anvil_reset are refused with a clear error; an unknown snapshot reverts nothing', async () => {
    expect((await call(url, 'anvil_setChainId', [1337])).error).toMatchObject({ code: -32000, message: expect.stringMatching(/chain id of sepolia is fixed/) });
    expect((await call(url, 'anvil_reset', [{ forking: { jsonRpcUrl: 'not a url' } }])).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/not a URL/),
    });
    expect((await call(url, 'anvil_reset', [{ forking: { blockNumber: 3 } }])).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/jsonRpcUrl is missing/),
    });
    const head = (await call(url, 'eth_blockNumber')).result;
    expect((await call(url, 'evm_revert', ['0x999'])).result).toBe(false);
    expect((await call(url, 'eth_blockNumber')).result).toBe(head);
  });

  it('the same controls on the start() handle', async () => {
    const net = gw.eth('sepolia');
    const id = await net.snapshot();
    await net.setBalance(WHO, 5n);
    expect(await net.getBalance(WHO)).toBe(5n);
    await net.mine({ blocks: 2 });
    expect(await net.revert(id)).toBe(true);
    expect(await net.getBalance(WHO)).not.toBe(5n);
  });
});
