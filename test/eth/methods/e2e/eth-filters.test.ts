/**
 * Polling filters over HTTP, with unchanged clients: viem's watch actions (which poll eth_getFilterChanges over
 * http), ethers' JsonRpcProvider events; removed logs after a revert; filters expire after 5 idle minutes.
 */
import { readFileSync } from 'node:fs';
import { JsonRpcProvider, Contract } from 'ethers';
import { createPublicClient, createTestClient, createWalletClient, http, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';

const token = JSON.parse(readFileSync(new URL('../../../../chains/contracts/Token.json', import.meta.url), 'utf8')) as { abi: Abi; bytecode: Hex };
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as const;
const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };
const clock = new ManualClock(Date.UTC(2026, 0, 1));

let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'], clock });
  url = gw.url('sepolia');
});
afterAll(() => gw.stop());

const until = async (done: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('viem watch actions over http (filters)', () => {
  it('watchBlocks, watchBlockNumber, watchContractEvent and watchPendingTransactions see what is mined and sent', async () => {
    const client = createPublicClient({ chain, transport: http(url), pollingInterval: 50, cacheTime: 0 });
    const wallet = createWalletClient({ account: privateKeyToAccount(KEY0), chain, transport: http(url) });
    const test = createTestClient({ chain, mode: 'anvil', transport: http(url) });
    const blocks: bigint[] = [];
    const numbers: bigint[] = [];
    const transfers: unknown[] = [];
    const pending: string[] = [];
    const unwatch = [
      client.watchBlocks({ onBlock: (b) => blocks.push(b.number!), poll: true, emitMissed: true }),
      client.watchBlockNumber({ onBlockNumber: (n) => numbers.push(n), poll: true }),
      client.watchContractEvent({ address: TOKEN, abi: token.abi, eventName: 'Transfer', onLogs: (logs) => transfers.push(...logs), poll: true }),
      client.watchPendingTransactions({ onTransactions: (hashes) => pending.push(...hashes), poll: true }),
    ];
    await new Promise((r) => setTimeout(r, 200));
    const head = await client.getBlockNumber();
    await test.mine({ blocks: 2 });
    const sent = await wallet.writeContract({
      address: TOKEN,
      abi: token.abi,
      functionName: 'transfer',
      args: ['0x00000000000000000000000000000000000000e1', 5n],
    });
    // watchBlockNumber polls on its own timer: wait for it too, not only for the filters (CI saw it one poll behind).
    await until(() => transfers.length > 0 && blocks.includes(head + 3n) && pending.includes(sent) && numbers.at(-1) === head + 3n);
    for (const off of unwatch) off();
    expect(blocks).toEqual(expect.arrayContaining([head + 1n, head + 2n, head + 3n]));
    expect(numbers.at(-1)).toBe(head + 3n);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ transactionHash: sent, eventName: 'Transfer', args: { value: 5n } });
  });
});

describe('ethers JsonRpcProvider', () => {
  it("on('block') and contract.on('Transfer') fire for mined blocks", async () => {
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, polling: true, cacheTimeout: -1 });
    provider.pollingInterval = 50;
    const seen: number[] = [];
    const events: unknown[] = [];
    await provider.on('block', (n: number) => seen.push(n));
    const contract = new Contract(TOKEN, token.abi as never, provider);
    await contract.on('Transfer', (...args: unknown[]) => events.push(args));
    await new Promise((r) => setTimeout(r, 300));
    const wallet = createWalletClient({ account: privateKeyToAccount(KEY0), chain, transport: http(url) });
    await wallet.writeContract({ address: TOKEN, abi: token.abi, functionName: 'transfer', args: ['0x00000000000000000000000000000000000000e2', 6n] });
    await until(() => events.length > 0 && seen.length > 0);
    provider.destroy();
    expect(seen.at(-1)).toBe(Number(await createPublicClient({ chain, transport: http(url) }).getBlockNumber()));
  });
});

describe('raw filters', () => {
  it('a log filter gets the logs of reverted blocks again with removed: true; eth_getFilterLogs answers as eth_getLogs', async () => {
    const id = (await call(url, 'eth_newFilter', [{ address: TOKEN, topics: [TRANSFER] }])).result;
    const blockFilter = (await call(url, 'eth_newBlockFilter')).result;
    expect(id).toMatch(/^0x[0-9a-f]+$/);
    const snap = (await call(url, 'evm_snapshot')).result;
    const wallet = createWalletClient({ account: privateKeyToAccount(KEY0), chain, transport: http(url) });
    const hash = await wallet.writeContract({
      address: TOKEN,
      abi: token.abi,
      functionName: 'transfer',
      args: ['0x00000000000000000000000000000000000000e3', 7n],
    });
    const added = (await call(url, 'eth_getFilterChanges', [id])).result;
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ transactionHash: hash, removed: false });
    expect((await call(url, 'eth_getFilterChanges', [blockFilter])).result).toEqual([added[0].blockHash]);
    expect((await call(url, 'eth_getFilterChanges', [id])).result).toEqual([]);
    expect((await call(url, 'evm_revert', [snap])).result).toBe(true);
    const removed = (await call(url, 'eth_getFilterChanges', [id])).result;
    expect(removed).toEqual([{ ...added[0], removed: true }]);
    const all = (await call(url, 'eth_getFilterLogs', [id])).result;
    expect(all).toEqual((await call(url, 'eth_getLogs', [{ address: TOKEN, topics: [TRANSFER] }])).result);
    expect((await call(url, 'eth_uninstallFilter', [id])).result).toBe(true);
    expect((await call(url, 'eth_uninstallFilter', [id])).result).toBe(false);
    expect((await call(url, 'eth_getFilterChanges', [id])).error).toMatchObject({ code: -32000, message: 'filter not found' });
  });

  it('a filter idle for 5 minutes is removed; polling keeps it', async () => {
    const kept = (await call(url, 'eth_newBlockFilter')).result;
    const idle = (await call(url, 'eth_newPendingTransactionFilter')).result;
    clock.advance(4 * 60_000);
    expect((await call(url, 'eth_getFilterChanges', [kept])).result).toEqual([]);
    clock.advance(61_000);
    expect((await call(url, 'eth_getFilterChanges', [idle])).error).toMatchObject({ message: 'filter not found' });
    expect((await call(url, 'eth_getFilterChanges', [kept])).result).toEqual([]);
  });

  it('bad ids and params answer clear errors', async () => {
    expect((await call(url, 'eth_getFilterChanges', ['nope'])).error.code).toBe(-32602);
    expect((await call(url, 'eth_newFilter', [{ topics: 'x' }])).error.code).toBe(-32602);
  });
});
