/**
 * `start({ isolate })` (docs/isolate.md): each API key gets its own copy-on-write copy of the network as started, so
 * test workers with keys of their own never see each other's writes; the key `devgate` (the bare address's) is served
 * the shared chain. Driven with viem over HTTP and WebSocket; one gateway for the file, on a manual clock (blocks of
 * two copies fed the same requests have the same timestamps, so the same hashes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, createWalletClient, http, parseAbi, webSocket, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ManualClock, ProviderRpcError, start, type Gateway } from '../../../../src/index.js';
import { quantile } from '../../../support/turns.js';
import { ACCOUNT0, TOKEN, readSurfaceSeed } from '../../methods/seed.js';

const KEY1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function transfer(address,uint256) returns (bool)']);
const clock = new ManualClock(Date.UTC(2026, 0, 1));
const IDLE_SECONDS = 60;
const MAX_COPIES = 16;
let gw: Gateway;
let chain: { id: number; name: string; nativeCurrency: { name: string; symbol: string; decimals: number }; rpcUrls: { default: { http: string[] } } };

beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [readSurfaceSeed()],
    clock,
    isolate: { by: 'key', maxCopies: MAX_COPIES, idleSeconds: IDLE_SECONDS },
    keys: {
      open: true,
      defaultPlan: 'unlimited',
      keys: [{ key: 'reads-only', plan: 'unlimited', allowlist: { methods: ['eth_blockNumber', 'eth_chainId'] } }],
    },
  });
  const id = await createPublicClient({ transport: http(gw.url('dev')) }).getChainId();
  chain = { id, name: 'dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } };
});
afterAll(() => gw?.stop());

const clientsOf = (key: string) => {
  const transport = http(gw.url('dev', key));
  return {
    pub: createPublicClient({ chain, transport }),
    wallet: createWalletClient({ chain, transport, account: privateKeyToAccount(KEY1) }),
    test: createTestClient({ chain, transport, mode: 'anvil' }),
  };
};

/** Two token transfers and a plain transfer, each waited for: three automined blocks. */
async function writes(key: string, to: `0x${string}`): Promise<Hash[]> {
  const { pub, wallet } = clientsOf(key);
  const hashes: Hash[] = [];
  for (const value of [1n, 2n]) {
    const hash = await wallet.writeContract({ address: TOKEN, abi: erc20, functionName: 'transfer', args: [to, value] });
    await pub.waitForTransactionReceipt({ hash, pollingInterval: 5 });
    hashes.push(hash);
  }
  const hash = await wallet.sendTransaction({ to, value: 1000n });
  await pub.waitForTransactionReceipt({ hash, pollingInterval: 5 });
  return [...hashes, hash];
}

describe('isolate: a chain per key', () => {
  it('refuses a fork network before building anything, naming the option', async () => {
    await expect(start({ port: 0, fork: { url: 'http://127.0.0.1:9' }, isolate: 'key' })).rejects.toThrow(/isolate: network "dev" is a fork/);
  });

  it('two keys writing at once each see only their own blocks and balances, with the hashes a fresh chain gives', async () => {
    const shared = clientsOf('devgate').pub;
    const start = await shared.getBlockNumber({ cacheTime: 0 });
    const toA = '0x00000000000000000000000000000000000000a1';
    const toB = '0x00000000000000000000000000000000000000b1';
    const [a, b] = await Promise.all([writes('worker-a', toA), writes('worker-b', toB)]);
    const A = clientsOf('worker-a').pub;
    const B = clientsOf('worker-b').pub;
    expect(await A.getBlockNumber({ cacheTime: 0 })).toBe(start + 3n);
    expect(await B.getBlockNumber({ cacheTime: 0 })).toBe(start + 3n);
    // Each copy holds its own transactions only; the shared chain neither.
    for (const h of a) expect((await A.getTransactionReceipt({ hash: h })).status).toBe('success');
    for (const h of b) await expect(A.getTransactionReceipt({ hash: h })).rejects.toThrow(/could not be found/);
    for (const h of a) await expect(B.getTransactionReceipt({ hash: h })).rejects.toThrow(/could not be found/);
    expect(await shared.getBlockNumber({ cacheTime: 0 })).toBe(start);
    expect(await A.getBalance({ address: toA })).toBe(1000n);
    expect(await A.getBalance({ address: toB })).toBe(0n);
    expect(await B.getBalance({ address: toB })).toBe(1000n);
    expect(await A.readContract({ address: TOKEN, abi: erc20, functionName: 'balanceOf', args: [toB] })).toBe(0n);
    expect(await B.readContract({ address: TOKEN, abi: erc20, functionName: 'balanceOf', args: [toB] })).toBe(3n);
    expect(await shared.getBalance({ address: toA })).toBe(0n);
    // Deterministic: the shared chain, still as started, fed A's requests gives A's hashes, block for block.
    const again = await writes('devgate', toA);
    expect(again).toEqual(a);
    for (let n = start + 1n; n <= start + 3n; n++) expect((await shared.getBlock({ blockNumber: n })).hash).toBe((await A.getBlock({ blockNumber: n })).hash);
    expect((await B.getBlock({ blockNumber: start + 1n })).hash).not.toBe((await A.getBlock({ blockNumber: start + 1n })).hash);
    // Blocks before the start are shared, not copied: the same block objects answer every key.
    expect((await B.getBlock({ blockNumber: start })).hash).toBe((await A.getBlock({ blockNumber: start })).hash);
  });

  it("a WebSocket subscription hears only its own copy's blocks", async () => {
    const transport = webSocket(gw.wsUrl('dev', 'ws-a'))({ chain });
    const heads: Hash[] = [];
    let heard: () => void = () => {};
    const first = new Promise<void>((resolve) => (heard = resolve));
    const { unsubscribe } = await transport.value!.subscribe({
      params: ['newHeads'],
      onData: (data) => {
        heads.push((data.result as { hash: Hash }).hash);
        heard();
      },
      onError: () => {},
    });
    // Another key mines (a block with a transaction: another hash), then this one mines an empty block.
    await writes('ws-b', '0x00000000000000000000000000000000000000c1');
    const mine = (key: string) => createTestClient({ chain, transport: http(gw.url('dev', key)), mode: 'anvil' }).mine({ blocks: 1 });
    await mine('devgate');
    await mine('ws-a');
    await first;
    const own = await clientsOf('ws-a').pub.getBlock({ blockTag: 'latest' });
    expect(heads).toEqual([own.hash]);
    await unsubscribe();
    await (await transport.value!.getRpcClient()).close();
  });

  it('snapshot and revert in one copy leave the other alone', async () => {
    const one = clientsOf('snap-1');
    const two = clientsOf('snap-2');
    const head = await one.pub.getBlockNumber({ cacheTime: 0 });
    const balance = await one.pub.getBalance({ address: ACCOUNT0 });
    const id1 = await one.test.snapshot();
    const id2 = await two.test.snapshot();
    // Ids are each copy's own.
    expect(id2).toBe(id1);
    await one.test.mine({ blocks: 5 });
    await two.test.mine({ blocks: 2 });
    await one.test.setBalance({ address: ACCOUNT0, value: 7n });
    await one.test.revert({ id: id1 });
    expect(await one.pub.getBlockNumber({ cacheTime: 0 })).toBe(head);
    expect(await two.pub.getBlockNumber({ cacheTime: 0 })).toBe(head + 2n);
    expect(await one.pub.getBalance({ address: ACCOUNT0 })).toBe(balance);
    // anvil_reset (docs/isolate.md's beforeAll) takes a copy back to the start, and only that copy.
    await two.test.reset();
    expect(await two.pub.getBlockNumber({ cacheTime: 0 })).toBe(head);
    expect(await clientsOf('worker-a').pub.getBlockNumber({ cacheTime: 0 })).toBe(head + 3n);
    // Time, impersonation and mining mode are per copy too.
    await one.test.setAutomine(false);
    expect(await two.test.request({ method: 'anvil_getAutomine' } as never)).toBe(true);
    await one.test.impersonateAccount({ address: '0x00000000000000000000000000000000000000d1' });
    await expect(
      two.test.request({ method: 'eth_sendTransaction', params: [{ from: '0x00000000000000000000000000000000000000d1', to: ACCOUNT0 }] } as never),
    ).rejects.toThrow();
  });

  it("the in-process provider is served its key's copy; a key's allowlist still applies", async () => {
    const p = gw.provider('dev', 'prov-a');
    const head = BigInt((await p.request({ method: 'eth_blockNumber' })) as string);
    const heard: unknown[] = [];
    p.on('message', (m: { data: { result: unknown } }) => heard.push(m.data.result));
    await p.request({ method: 'eth_subscribe', params: ['newHeads'] });
    await clientsOf('prov-b').test.mine({ blocks: 2 });
    await p.request({ method: 'evm_mine' });
    expect(BigInt((await p.request({ method: 'eth_blockNumber' })) as string)).toBe(head + 1n);
    expect(BigInt((await gw.provider('dev', 'prov-b').request({ method: 'eth_blockNumber' })) as string)).toBe(head + 2n);
    const own = (await p.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string };
    // Notifications go out on the turn after the command's commit: one round trip later they have arrived.
    await p.request({ method: 'eth_chainId' });
    expect(heard.map((h) => (h as { hash: string }).hash)).toEqual([own.hash]);
    p.disconnect();
    const limited = gw.provider('dev', 'reads-only');
    expect(await limited.request({ method: 'eth_blockNumber' })).toBe(`0x${head.toString(16)}`);
    await expect(limited.request({ method: 'evm_mine' })).rejects.toBeInstanceOf(ProviderRpcError);
  });

  it('makes a copy on first use in a few milliseconds, and reports what each costs', async () => {
    const keys = ['made-1', 'made-2', 'made-3'];
    for (const k of keys) await clientsOf(k).pub.getBlockNumber({ cacheTime: 0 });
    const copies = gw.isolated('dev');
    const made = copies.filter((c) => keys.includes(c.key)).map((c) => c.madeInMs);
    expect(made).toHaveLength(3);
    // Relative to the cheapest write on the same chain (one empty block): making a copy costs less than a few of them.
    const { test } = clientsOf('made-1');
    const mined: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await test.mine({ blocks: 1 });
      mined.push(performance.now() - t);
    }
    expect(quantile(made, 0.5)).toBeLessThan(Math.max(5, 3 * quantile(mined, 0.5)));
    const a = copies.find((c) => c.key === 'worker-a')!;
    expect(a.blocks).toBe(3n);
    expect(a.ownNodes).toBeGreaterThan(0);
    expect(a.ownNodeBytes).toBeGreaterThan(a.ownNodes * 32);
    expect(gw.isolated('dev').find((c) => c.key === 'made-2')?.ownNodes).toBe(0);
  });

  it('caps live copies (a clear -32005 past it) and frees idle ones; an idle key starts afresh', async () => {
    // Free every copy made so far: they are idle past the limit.
    clock.advance(IDLE_SECONDS * 1000 + 1);
    const fresh = clientsOf('cap-0');
    const head = await fresh.pub.getBlockNumber({ cacheTime: 0 });
    expect(gw.isolated('dev').map((c) => c.key)).toEqual(['cap-0']);
    for (let i = 1; i < MAX_COPIES; i++) await clientsOf(`cap-${i}`).pub.getBlockNumber({ cacheTime: 0 });
    const over = await fetch(gw.url('dev', 'cap-over'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    }).then((r) => r.json() as Promise<{ error: { code: number; message: string } }>);
    expect(over.error.code).toBe(-32005);
    expect(over.error.message).toMatch(/maxCopies 16/);
    // The shared key is never refused.
    expect(await clientsOf('devgate').pub.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(0n);
    await fresh.test.mine({ blocks: 4 });
    clock.advance(IDLE_SECONDS * 1000 + 1);
    expect(await clientsOf('cap-over').pub.getBlockNumber({ cacheTime: 0 })).toBe(head);
    // cap-0 was freed as idle: its next request is served by a fresh copy of the start.
    expect(await fresh.pub.getBlockNumber({ cacheTime: 0 })).toBe(head);
  });
});
