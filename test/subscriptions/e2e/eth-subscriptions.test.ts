/**
 * eth_subscribe over WebSocket with unchanged clients (viem's webSocket watch actions, ethers WebSocketProvider),
 * and raw frames: geth's envelope, chain order, nothing lost or duplicated in a 1,000-block burst, removed logs and
 * the new head after a revert, -32601 over HTTP, and a closed connection leaves no listener behind.
 */
import { readFileSync } from 'node:fs';
import { Contract, WebSocketProvider } from 'ethers';
import { createPublicClient, createWalletClient, http, webSocket, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../src/index.js';
import { call, WsClient } from '../../support/http.js';

const token = JSON.parse(readFileSync(new URL('../../../chains/contracts/Token.json', import.meta.url), 'utf8')) as { abi: Abi; bytecode: Hex };
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as const;
const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };

let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
});
afterAll(() => gw.stop());

const until = async (done: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const transfer = (to: Hex, value: bigint) =>
  createWalletClient({ account: privateKeyToAccount(KEY0), chain, transport: http(url) }).writeContract({
    address: TOKEN,
    abi: token.abi,
    functionName: 'transfer',
    args: [to, value],
  });

describe('viem over webSocket (subscriptions)', () => {
  it('watchBlocks, watchBlockNumber, watchContractEvent and watchPendingTransactions', async () => {
    const transport = webSocket(gw.wsUrl('sepolia'));
    const client = createPublicClient({ chain, transport });
    const blocks: bigint[] = [];
    const numbers: bigint[] = [];
    const logs: unknown[] = [];
    const pending: string[] = [];
    const unwatch = [
      client.watchBlocks({ onBlock: (b) => blocks.push(b.number!) }),
      client.watchBlockNumber({ onBlockNumber: (n) => numbers.push(n) }),
      client.watchContractEvent({ address: TOKEN, abi: token.abi, eventName: 'Transfer', onLogs: (l) => logs.push(...l) }),
      client.watchPendingTransactions({ onTransactions: (h) => pending.push(...h) }),
    ];
    await new Promise((r) => setTimeout(r, 200));
    const head = BigInt((await call(url, 'eth_blockNumber')).result);
    const hash = await transfer('0x00000000000000000000000000000000000000f1', 3n);
    await call(url, 'anvil_mine', ['0x2']);
    await until(() => blocks.includes(head + 3n) && logs.length > 0 && pending.includes(hash) && numbers.includes(head + 3n));
    for (const off of unwatch) off();
    expect(blocks).toEqual([head + 1n, head + 2n, head + 3n]);
    expect(logs[0]).toMatchObject({ transactionHash: hash, eventName: 'Transfer', args: { value: 3n } });
    await (await transport({ chain }).value?.getRpcClient())?.close();
  });
});

describe('ethers WebSocketProvider', () => {
  it("on('block') and contract.on('Transfer')", async () => {
    const provider = new WebSocketProvider(gw.wsUrl('sepolia'));
    const seen: number[] = [];
    const events: unknown[] = [];
    await provider.on('block', (n: number) => seen.push(n));
    const contract = new Contract(TOKEN, token.abi as never, provider);
    await contract.on('Transfer', (...args: unknown[]) => events.push(args));
    await new Promise((r) => setTimeout(r, 200));
    await transfer('0x00000000000000000000000000000000000000f2', 4n);
    await until(() => events.length > 0 && seen.length > 0);
    expect(seen.at(-1)).toBe(Number((await call(url, 'eth_blockNumber')).result));
    await provider.destroy();
  });
});

describe('raw frames', () => {
  it("geth's envelope; a 1,000-block burst arrives in order, none lost or duplicated", async () => {
    const ws = await WsClient.open(gw.wsUrl('sepolia'));
    const sub = await ws.request({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] });
    expect(sub).toEqual({ jsonrpc: '2.0', id: 1, result: expect.stringMatching(/^0x[0-9a-f]+$/) });
    const head = BigInt((await call(url, 'eth_blockNumber')).result);
    const mined = await call(url, 'anvil_mine', ['0x3e8']);
    expect(mined.error).toBeUndefined();
    const numbers: bigint[] = [];
    for (let i = 0; i < 1000; i++) {
      const note = await ws.next();
      expect(note.method).toBe('eth_subscription');
      expect(note.params.subscription).toBe(sub.result);
      numbers.push(BigInt(note.params.result.number));
      if (i === 0) {
        const block = (await call(url, 'eth_getBlockByNumber', [note.params.result.number, false])).result;
        const { transactions, uncles, withdrawals, size, totalDifficulty, ...header } = block;
        expect(note.params.result).toEqual(header);
      }
    }
    expect(numbers).toEqual(Array.from({ length: 1000 }, (_, i) => head + 1n + BigInt(i)));
    expect(await ws.request({ jsonrpc: '2.0', id: 2, method: 'eth_unsubscribe', params: [sub.result] })).toEqual({ jsonrpc: '2.0', id: 2, result: true });
    expect(await ws.request({ jsonrpc: '2.0', id: 3, method: 'eth_unsubscribe', params: [sub.result] })).toEqual({ jsonrpc: '2.0', id: 3, result: false });
    ws.socket.close();
  });

  it('after a revert: the logs again with removed: true, and the new head', async () => {
    const ws = await WsClient.open(gw.wsUrl('sepolia'));
    const logsSub = (await ws.request({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['logs', { address: TOKEN, topics: [TRANSFER] }] })).result;
    const headsSub = (await ws.request({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['newHeads'] })).result;
    const snap = (await call(url, 'evm_snapshot')).result;
    const base = (await call(url, 'eth_getBlockByNumber', ['latest', false])).result;
    const hash = await transfer('0x00000000000000000000000000000000000000f3', 5n);
    const notes = [await ws.next(), await ws.next()];
    const log = notes.find((n) => n.params.subscription === logsSub)!.params.result;
    expect(log).toMatchObject({ transactionHash: hash, removed: false });
    expect((await call(url, 'evm_revert', [snap])).result).toBe(true);
    const after = [await ws.next(), await ws.next()];
    expect(after.find((n) => n.params.subscription === logsSub)!.params.result).toEqual({ ...log, removed: true });
    expect(after.find((n) => n.params.subscription === headsSub)!.params.result.hash).toBe(base.hash);
    ws.socket.close();
  });

  it('over HTTP: notifications not supported; bad kinds and options answer -32602; closed connections leave no listener', async () => {
    expect((await call(url, 'eth_subscribe', ['newHeads'])).error).toEqual({ code: -32601, message: 'notifications not supported' });
    const ws = await WsClient.open(gw.wsUrl('sepolia'));
    expect((await ws.request({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['nope'] })).error.code).toBe(-32602);
    expect((await ws.request({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', { topics: 'x' }] })).error.code).toBe(-32602);
    expect((await ws.request({ jsonrpc: '2.0', id: 3, method: 'eth_subscribe', params: ['newPendingTransactions', true] })).result).toMatch(/^0x/);
    const closed = new Promise((r) => ws.socket.once('close', r));
    ws.socket.close();
    await closed;
    await new Promise((r) => setTimeout(r, 50));
    // Every connection of this file is closed: mining notifies nobody and nothing throws.
    expect((await call(url, 'evm_mine')).result).toBe('0x0');
  });
});
