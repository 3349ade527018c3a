/**
 * A pre-Byzantium chain (the engine's homestead test seed) over the wire: receipts carry `root` and
 * never `status`, blocks have no post-London fields, difficulty and totalDifficulty are real, legacy
 * transactions before EIP-155 carry no chainId, and viem reads it all.
 */
import { fileURLToPath } from 'node:url';
import { createBlockFromRPC } from '@ethereumjs/block';
import { createCustomCommon, Mainnet } from '@ethereumjs/common';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { result } from '../../../support/http.js';
import { UNLIMITED } from '../seed.js';

const SEED = fileURLToPath(new URL('../../../fixtures/eth/homestead.json', import.meta.url));
const HASH = /^0x[0-9a-f]{64}$/;
const RECEIPT_KEYS = [
  'blockHash',
  'blockNumber',
  'contractAddress',
  'cumulativeGasUsed',
  'effectiveGasPrice',
  'from',
  'gasUsed',
  'logs',
  'logsBloom',
  'root',
  'to',
  'transactionHash',
  'transactionIndex',
  'type',
];
const BLOCK_KEYS = [
  'difficulty',
  'extraData',
  'gasLimit',
  'gasUsed',
  'hash',
  'logsBloom',
  'miner',
  'mixHash',
  'nonce',
  'number',
  'parentHash',
  'receiptsRoot',
  'sha3Uncles',
  'size',
  'stateRoot',
  'timestamp',
  'totalDifficulty',
  'transactions',
  'transactionsRoot',
  'uncles',
];

let gw: Gateway;
let url: string;
const rpc = (method: string, params: unknown[] = []) => result(url, method, params);

beforeAll(async () => {
  gw = await start({ port: 0, chains: [SEED], keys: UNLIMITED });
  url = gw.url('homestead');
});
afterAll(() => gw?.stop());

describe('pre-Byzantium chain', () => {
  it('receipts carry root (the state root after the tx), never status', async () => {
    const head = BigInt(await rpc('eth_blockNumber'));
    let seen = 0;
    for (let n = 1n; n <= head; n++) {
      const receipts = await rpc('eth_getBlockReceipts', ['0x' + n.toString(16)]);
      const block = await rpc('eth_getBlockByNumber', ['0x' + n.toString(16), true]);
      receipts.forEach((r: any, i: number) => {
        expect(Object.keys(r)).toEqual(RECEIPT_KEYS);
        expect(r).not.toHaveProperty('status');
        expect(r.root).toMatch(HASH);
        expect(r.type).toBe('0x0');
        expect(r.effectiveGasPrice).toBe(block.transactions[i].gasPrice);
        seen++;
      });
      // Each tx leaves its own state root (the block's stateRoot also has the mining reward in it).
      expect(new Set(receipts.map((r: any) => r.root)).size).toBe(receipts.length);
    }
    expect(seen).toBeGreaterThan(3);
  });

  it('blocks have the fields of their hardfork only, real difficulty and total difficulty', async () => {
    const b1 = await rpc('eth_getBlockByNumber', ['0x1', true]);
    const b2 = await rpc('eth_getBlockByNumber', ['0x2', false]);
    const genesis = await rpc('eth_getBlockByNumber', ['0x0', false]);
    expect(Object.keys(b1)).toEqual(BLOCK_KEYS);
    expect(BigInt(b1.difficulty)).toBeGreaterThan(0n);
    expect(BigInt(b2.totalDifficulty)).toBe(BigInt(genesis.difficulty) + BigInt(b1.difficulty) + BigInt(b2.difficulty));
    const common = createCustomCommon({ chainId: 1337 }, Mainnet, { hardfork: 'homestead' });
    const rebuilt = createBlockFromRPC(b1, [], { common });
    expect('0x' + Buffer.from(rebuilt.hash()).toString('hex')).toBe(b1.hash);
    expect('0x' + rebuilt.serialize().length.toString(16)).toBe(b1.size);
    for (const tx of b1.transactions) {
      expect(tx.type).toBe('0x0');
      expect(tx).not.toHaveProperty('chainId');
      expect(['0x1b', '0x1c']).toContain(tx.v);
    }
    expect(await rpc('eth_blobBaseFee')).toBeNull();
  });

  it('viem reads the chain and its receipts', async () => {
    const client = createPublicClient({ transport: http(url) });
    const block = await client.getBlock({ blockNumber: 1n, includeTransactions: true });
    expect(block.baseFeePerGas).toBeNull();
    const receipt = await client.getTransactionReceipt({ hash: block.transactions[0]!.hash });
    expect(receipt.root).toMatch(HASH);
    expect(receipt.blockNumber).toBe(1n);
  });

  it('hardhat_setPrevRandao is refused before the merge, naming the hardfork, and changes nothing', async () => {
    const before = await rpc('eth_getBlockByNumber', ['pending', false]);
    const reply = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hardhat_setPrevRandao', params: [`0x${'11'.repeat(32)}`] }),
    }).then((r) => r.json() as Promise<{ error: { code: number; message: string } }>);
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.message).toContain('post-merge');
    expect(reply.error.message).toContain('homestead');
    expect((await rpc('eth_getBlockByNumber', ['pending', false])).mixHash).toBe(before.mixHash);
  });
});
