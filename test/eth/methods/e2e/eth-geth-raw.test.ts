/**
 * geth's small methods of issue 17 through unchanged clients (viem's `client.request`, ethers' `provider.send`):
 * debug_getRaw*, eth_getRawTransactionBy*, eth_getStorageValues, eth_getHeaderBy*, eth_getUncleBy*, eth_config,
 * eth_baseFee and eth_capabilities, over the importer's fixture chain
 * (homestead to bpo2, transaction types 0 to 4, an uncle) and the read-surface chain (pending transactions).
 * Answers are checked against what they encode: raw headers hash to the block hash, raw transactions decode in
 * ethers to the same hash and sender, raw receipts rebuild the receiptsRoot, headers equal the block object's
 * header fields, uncles are the block's uncles.
 */
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { JsonRpcProvider, Network, Transaction } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, hexToBytes, http, keccak256, type PublicClient } from 'viem';
import { start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';
import { readSurfaceSeed, STORAGE_LAYOUT, TOKEN, UNLIMITED } from '../seed.js';

const FORKS = fileURLToPath(new URL('../../../fixtures/forks/seed.json', import.meta.url));
const BLOCK_ONLY = ['totalDifficulty', 'size', 'transactions', 'uncles', 'withdrawals'];

let gw: Gateway;
let viem: PublicClient;
let ethers: JsonRpcProvider;
let dev: PublicClient;
const req = (client: PublicClient, method: string, params: unknown[] = []) => client.request({ method: method as any, params: params as any }) as Promise<any>;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [FORKS, readSurfaceSeed(), { name: 'old', kind: 'eth', chainId: 1338, hardfork: 'london' }], keys: UNLIMITED });
  viem = createPublicClient({ transport: http(gw.url('forks')) }) as PublicClient;
  dev = createPublicClient({ transport: http(gw.url('dev')) }) as PublicClient;
  const network = Network.from(7357);
  ethers = new JsonRpcProvider(gw.url('forks'), network, { staticNetwork: network, batchMaxCount: 1 });
});
afterAll(async () => {
  ethers?.destroy();
  await gw?.stop();
});

async function indexRoot(values: string[]): Promise<string> {
  const trie = new MerklePatriciaTrie();
  for (const [i, v] of values.entries()) await trie.put(RLP.encode(i), hexToBytes(v as `0x${string}`));
  return '0x' + Buffer.from(trie.root()).toString('hex');
}

describe('debug_getRaw* over the fork chain', () => {
  it('every block: header hashes to the block hash, block RLP holds it, transactions and receipts rebuild the roots', async () => {
    const head = Number(await viem.getBlockNumber());
    for (let n = 0; n <= head; n++) {
      const number = '0x' + n.toString(16);
      const block = await req(viem, 'eth_getBlockByNumber', [number, false]);
      const header: string = await req(viem, 'debug_getRawHeader', [number]);
      expect(keccak256(header as `0x${string}`), `block ${n}`).toBe(block.hash);
      // By hash as by number; ethers' provider.send answers the same.
      expect(await ethers.send('debug_getRawHeader', [block.hash])).toBe(header);
      const raw: string = await ethers.send('debug_getRawBlock', [number]);
      expect(raw.startsWith('0x')).toBe(true);
      expect((raw.length - 2) / 2).toBe(Number(block.size));
      const [rawHeader, txs] = RLP.decode(hexToBytes(raw as `0x${string}`)) as [Uint8Array, Uint8Array[]];
      expect('0x' + Buffer.from(RLP.encode(rawHeader)).toString('hex')).toBe(header);
      expect(txs).toHaveLength(block.transactions.length);
      const receipts: string[] = await req(viem, 'debug_getRawReceipts', [block.hash]);
      expect(receipts).toHaveLength(block.transactions.length);
      expect(await indexRoot(receipts), `receipts of block ${n}`).toBe(block.receiptsRoot);
    }
  });

  it('every transaction: ethers decodes the raw bytes to the same hash, sender and type', async () => {
    const head = Number(await viem.getBlockNumber());
    const types = new Set<number>();
    for (let n = 1; n <= head; n++) {
      const block = await req(viem, 'eth_getBlockByNumber', ['0x' + n.toString(16), true]);
      for (const tx of block.transactions) {
        const raw = await ethers.send('debug_getRawTransaction', [tx.hash]);
        const decoded = Transaction.from(raw);
        expect(decoded.hash).toBe(tx.hash);
        expect(decoded.from?.toLowerCase()).toBe(tx.from);
        expect(decoded.type).toBe(Number(tx.type));
        types.add(decoded.type!);
      }
    }
    expect([...types].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('not found: null (SPEC 7) for a number beyond head, an unknown hash, pending, an index out of range', async () => {
    const unknown = '0x' + '11'.repeat(32);
    for (const m of ['debug_getRawHeader', 'debug_getRawBlock', 'debug_getRawReceipts']) {
      for (const block of ['0xffffff', unknown, 'pending']) expect(await req(viem, m, [block]), `${m} ${block}`).toBeNull();
    }
    for (const m of ['debug_getRawTransaction', 'eth_getRawTransactionByHash']) expect(await req(viem, m, [unknown])).toBeNull();
    expect(await req(viem, 'eth_getRawTransactionByBlockHashAndIndex', [unknown, '0x0'])).toBeNull();
    expect(await req(viem, 'eth_getRawTransactionByBlockNumberAndIndex', ['0xffffff', '0x0'])).toBeNull();
    expect(await req(viem, 'eth_getRawTransactionByBlockNumberAndIndex', ['0x0', '0x0'])).toBeNull();
    // A block without transactions has no receipts: an empty list, not null.
    expect(await req(viem, 'debug_getRawReceipts', ['0x0'])).toEqual([]);
  });

  it('eth_getRawTransactionBy*: the same bytes as debug_getRawTransaction, by hash, by block hash and by number', async () => {
    const head = Number(await viem.getBlockNumber());
    let seen = 0;
    for (let n = 1; n <= head; n++) {
      const block = await req(viem, 'eth_getBlockByNumber', ['0x' + n.toString(16), false]);
      for (const [i, hash] of (block.transactions as string[]).entries()) {
        const raw = await req(viem, 'debug_getRawTransaction', [hash]);
        const index = '0x' + i.toString(16);
        expect(await ethers.send('eth_getRawTransactionByHash', [hash])).toBe(raw);
        expect(await req(viem, 'eth_getRawTransactionByBlockHashAndIndex', [block.hash, index])).toBe(raw);
        expect(await ethers.send('eth_getRawTransactionByBlockNumberAndIndex', [block.number, index])).toBe(raw);
        seen++;
      }
      const past = '0x' + block.transactions.length.toString(16);
      expect(await req(viem, 'eth_getRawTransactionByBlockHashAndIndex', [block.hash, past])).toBeNull();
    }
    expect(seen).toBeGreaterThan(10);
  });

  it('bad params: -32602 naming the problem, as geth words it', async () => {
    const url = gw.url('forks');
    expect((await call(url, 'debug_getRawBlock', ['2'])).error).toEqual({ code: -32602, message: 'invalid argument 0: hex string without 0x prefix' });
    expect((await call(url, 'debug_getRawHeader', [])).error).toEqual({ code: -32602, message: 'missing value for required argument 0' });
    expect((await call(url, 'debug_getRawTransaction', ['0x12'])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string has length 2, want 64 for common.Hash',
    });
    expect((await call(url, 'debug_getRawTransaction', [12])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash',
    });
    expect((await call(url, 'eth_getHeaderByNumber', ['latest', 1])).error).toEqual({ code: -32602, message: 'too many arguments, want at most 1' });
  });
});

describe('headers and uncles', () => {
  it("eth_getHeaderByNumber/ByHash: the block object's header fields, without totalDifficulty, size, transactions, uncles", async () => {
    const head = Number(await viem.getBlockNumber());
    for (let n = 0; n <= head; n++) {
      const number = '0x' + n.toString(16);
      const block = await req(viem, 'eth_getBlockByNumber', [number, false]);
      const expected = Object.fromEntries(Object.entries(block).filter(([k]) => !BLOCK_ONLY.includes(k)));
      const header = await req(viem, 'eth_getHeaderByNumber', [number]);
      expect(header, `block ${n}`).toEqual(expected);
      expect(Object.keys(header)).toEqual(Object.keys(header).sort());
      expect(await ethers.send('eth_getHeaderByHash', [block.hash])).toEqual(header);
    }
    expect(await req(viem, 'eth_getHeaderByNumber', ['0xffffff'])).toBeNull();
    expect(await req(viem, 'eth_getHeaderByHash', ['0x' + '22'.repeat(32)])).toBeNull();
  });

  it("eth_getUncleBy*AndIndex: the block's uncle (hash among its uncles, its own number), null past the last", async () => {
    const head = Number(await viem.getBlockNumber());
    let seen = 0;
    for (let n = 0; n <= head; n++) {
      const number = '0x' + n.toString(16);
      const block = await req(viem, 'eth_getBlockByNumber', [number, false]);
      for (const [i, hash] of (block.uncles as string[]).entries()) {
        const index = '0x' + i.toString(16);
        const uncle = await req(viem, 'eth_getUncleByBlockNumberAndIndex', [number, index]);
        expect(uncle.hash).toBe(hash);
        expect(BigInt(uncle.number)).toBeLessThan(BigInt(number));
        expect(uncle.uncles).toEqual([]);
        expect(uncle.transactions).toBeUndefined();
        expect(uncle.totalDifficulty).toBeUndefined();
        expect(Object.keys(uncle)).toEqual(Object.keys(uncle).sort());
        expect(await ethers.send('eth_getUncleByBlockHashAndIndex', [block.hash, index])).toEqual(uncle);
        seen++;
      }
      const past = '0x' + block.uncles.length.toString(16);
      expect(await req(viem, 'eth_getUncleByBlockNumberAndIndex', [number, past])).toBeNull();
      expect(await req(viem, 'eth_getUncleByBlockHashAndIndex', [block.hash, past])).toBeNull();
    }
    expect(seen).toBeGreaterThan(0);
    expect(await req(viem, 'eth_getUncleByBlockNumberAndIndex', ['0xffffff', '0x0'])).toBeNull();
    expect(await req(viem, 'eth_getUncleByBlockHashAndIndex', ['0x' + '22'.repeat(32), '0x0'])).toBeNull();
  });
});

describe('the read-surface chain: pending, storage in bulk', () => {
  it('pending: the header has null hash, nonce and miner (as geth); pooled transactions have raw bytes', async () => {
    const header = await req(dev, 'eth_getHeaderByNumber', ['pending']);
    const latest = await req(dev, 'eth_getHeaderByNumber', ['latest']);
    expect(header.hash).toBeNull();
    expect(header.nonce).toBeNull();
    expect(header.miner).toBeNull();
    expect(BigInt(header.number)).toBe(BigInt(latest.number) + 1n);
    expect(header.parentHash).toBe(latest.hash);
    const pool = await req(dev, 'eth_getBlockByNumber', ['pending', true]);
    expect(pool.transactions.length).toBeGreaterThan(0);
    for (const tx of pool.transactions) expect(Transaction.from(await req(dev, 'debug_getRawTransaction', [tx.hash])).hash).toBe(tx.hash);
    for (const [i, tx] of pool.transactions.entries()) {
      expect(await req(dev, 'eth_getRawTransactionByBlockNumberAndIndex', ['pending', '0x' + i.toString(16)])).toBe(
        await req(dev, 'eth_getRawTransactionByHash', [tx.hash]),
      );
    }
  });

  it('eth_getStorageValues equals eth_getStorageAt slot by slot, over several addresses, at latest and at a block', async () => {
    const slots = Array.from({ length: 6 }, (_, i) => '0x' + i.toString(16).padStart(64, '0'));
    const request = { [TOKEN]: slots, [STORAGE_LAYOUT.toUpperCase().replace('0X', '0x')]: slots.slice(0, 3), ['0x' + '00'.repeat(19) + 'aa']: [slots[0]] };
    for (const block of ['latest', '0x1']) {
      const got = await req(dev, 'eth_getStorageValues', [request, block]);
      expect(Object.keys(got)).toEqual(Object.keys(got).sort());
      for (const [address, keys] of Object.entries(request)) {
        const expected = await Promise.all(keys.map((k) => req(dev, 'eth_getStorageAt', [address, k, block])));
        expect(got[address.toLowerCase()], `${address} at ${block}`).toEqual(expected);
      }
    }
    expect(
      Object.values(await req(dev, 'eth_getStorageValues', [request]))
        .flat()
        .some((v: any) => BigInt(v) !== 0n),
    ).toBe(true);
  });

  it('eth_getStorageValues errors: empty (-32602), over 1024 slots (-38026), bad keys (-32602), unknown block (-32000)', async () => {
    const url = gw.url('dev');
    const slot = '0x' + '00'.repeat(32);
    expect((await call(url, 'eth_getStorageValues', [{}, 'latest'])).error).toEqual({ code: -32602, message: 'empty request' });
    expect((await call(url, 'eth_getStorageValues', [{ [TOKEN]: [] }])).error).toEqual({ code: -32602, message: 'empty request' });
    expect((await call(url, 'eth_getStorageValues', [null])).error).toEqual({ code: -32602, message: 'empty request' });
    expect((await call(url, 'eth_getStorageValues', [{ [TOKEN]: Array(1025).fill(slot) }])).error).toEqual({
      code: -38026,
      message: 'too many slots (max 1024)',
    });
    expect((await call(url, 'eth_getStorageValues', [{ [TOKEN]: ['0x0'] }])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Hash',
    });
    expect((await call(url, 'eth_getStorageValues', [{ '0x1234': [slot] }])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string has length 4, want 40 for Address',
    });
    expect((await call(url, 'eth_getStorageValues', [[TOKEN]])).error.code).toBe(-32602);
    expect((await call(url, 'eth_getStorageValues', [{ [TOKEN]: [slot] }, '0xffffff'])).error).toEqual({ code: -32000, message: 'header not found' });
  });
});

describe('eth_config (EIP-7910) on devgate seeds', () => {
  it('an osaka seed: every fork at genesis, so current is osaka from time 0 with the genesis fork id; nothing next', async () => {
    const config = await req(dev, 'eth_config');
    const genesis = await req(dev, 'eth_getBlockByNumber', ['0x0', false]);
    const forkId = '0x' + (crc32(hexToBytes(genesis.hash)) >>> 0).toString(16).padStart(8, '0');
    expect(config.next).toBeNull();
    expect(config.last).toBeNull();
    expect(config.current.activationTime).toBe(0);
    expect(config.current.chainId).toBe('0x539');
    expect(config.current.forkId).toBe(forkId);
    expect(config.current.blobSchedule).toEqual({ target: 6, max: 9, baseFeeUpdateFraction: 5007716 });
    expect(Object.keys(config.current.precompiles)).toHaveLength(18);
    expect(config.current.precompiles.P256VERIFY).toBe('0x0000000000000000000000000000000000000100');
    expect(Object.keys(config.current.systemContracts)).toEqual([
      'BEACON_ROOTS_ADDRESS',
      'CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS',
      'DEPOSIT_CONTRACT_ADDRESS',
      'HISTORY_STORAGE_ADDRESS',
      'WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS',
    ]);
  });

  it('a london seed (before Shanghai): no current entry, as geth; too many arguments is -32602', async () => {
    const old = createPublicClient({ transport: http(gw.url('old')) }) as PublicClient;
    expect(await req(old, 'eth_config')).toEqual({ current: null, next: null, last: null });
    expect((await call(gw.url('old'), 'eth_config', [1])).error).toEqual({ code: -32602, message: 'too many arguments, want at most 0' });
  });

  it('the fork chain through ethers: current is its last fork, with a blob schedule', async () => {
    const config = await ethers.send('eth_config', []);
    expect(config.current.chainId).toBe('0x1cbd');
    expect(config.current.blobSchedule.max).toBeGreaterThan(0);
    expect(config.current.forkId).toMatch(/^0x[0-9a-f]{8}$/);
  });
});

describe('eth_baseFee and eth_capabilities', () => {
  it("eth_baseFee is the next block's base fee: the pending block's, and the one anvil_setNextBlockBaseFeePerGas sets", async () => {
    const pending = await req(dev, 'eth_getBlockByNumber', ['pending', false]);
    expect(await req(dev, 'eth_baseFee')).toBe(pending.baseFeePerGas);
    const old = createPublicClient({ transport: http(gw.url('old')) }) as PublicClient;
    const head = await req(old, 'eth_getBlockByNumber', ['latest', false]);
    expect(BigInt(await req(old, 'eth_baseFee'))).toBeGreaterThan(0n);
    expect(BigInt(await req(old, 'eth_baseFee'))).toBeLessThanOrEqual((BigInt(head.baseFeePerGas) * 9n) / 8n);
    await req(old, 'anvil_setNextBlockBaseFeePerGas', ['0x3b9aca07']);
    expect(await req(old, 'eth_baseFee')).toBe('0x3b9aca07');
  });

  it('eth_capabilities: head, and every resource kept from genesis', async () => {
    const caps = await req(dev, 'eth_capabilities');
    const head = await req(dev, 'eth_getBlockByNumber', ['latest', false]);
    expect(caps.head).toEqual({ number: head.number, hash: head.hash });
    for (const part of ['state', 'tx', 'logs', 'receipts', 'blocks', 'stateproofs']) expect(caps[part]).toEqual({ disabled: false, oldestBlock: '0x0' });
  });
});
