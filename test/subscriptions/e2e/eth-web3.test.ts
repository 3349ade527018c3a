/**
 * web3.js 4, unchanged, over devgate's WebSocket address: subscribe('newBlockHeaders') and subscribe('logs') see
 * every new block and the matching logs, in order, and unsubscribe cleanly.
 */
import { readFileSync } from 'node:fs';
import { Web3 } from 'web3';
import { createWalletClient, http, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../src/index.js';
import { call } from '../../support/http.js';

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

describe('web3.js over WebSocket', () => {
  it("subscribe('newBlockHeaders') and subscribe('logs')", async () => {
    const web3 = new Web3(gw.wsUrl('sepolia'));
    const heads = await web3.eth.subscribe('newBlockHeaders');
    const logsSub = await web3.eth.subscribe('logs', { address: TOKEN, topics: [TRANSFER] });
    const numbers: bigint[] = [];
    const hashes: string[] = [];
    const logs: any[] = [];
    const errors: unknown[] = [];
    heads.on('data', (h) => {
      numbers.push(BigInt(h.number as bigint));
      hashes.push(String(h.hash));
    });
    logsSub.on('data', (l) => void logs.push(l));
    heads.on('error', (e) => void errors.push(e));
    logsSub.on('error', (e) => void errors.push(e));

    const head = BigInt((await call(url, 'eth_blockNumber')).result);
    const wallet = createWalletClient({ account: privateKeyToAccount(KEY0), chain, transport: http(url) });
    const tx = await wallet.writeContract({
      address: TOKEN,
      abi: token.abi,
      functionName: 'transfer',
      args: ['0x00000000000000000000000000000000000000f4', 7n],
    });
    await call(url, 'anvil_mine', ['0x2']);
    await until(() => numbers.length === 3 && logs.length === 1);

    expect(errors).toEqual([]);
    expect(numbers).toEqual([head + 1n, head + 2n, head + 3n]);
    const block = (await call(url, 'eth_getBlockByNumber', ['0x' + (head + 1n).toString(16), false])).result;
    expect(hashes[0]).toBe(block.hash);
    expect(logs[0]).toMatchObject({ address: TOKEN, transactionHash: tx, blockNumber: head + 1n, removed: false });
    expect(logs[0].topics[0]).toBe(TRANSFER);
    expect(BigInt(logs[0].data)).toBe(7n);

    await heads.unsubscribe();
    await logsSub.unsubscribe();
    await call(url, 'evm_mine');
    await new Promise((r) => setTimeout(r, 100));
    expect(numbers).toHaveLength(3);
    (web3.currentProvider as { disconnect(): void }).disconnect();
  });
});
