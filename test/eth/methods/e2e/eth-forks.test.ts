/**
 * The read surface over the importer's fixture chain (homestead through the merge to osaka and the
 * bpo forks, transaction types 0-4 with real blob transactions): every transaction of every block
 * has exactly its type's fields and ethers rebuilds it from the wire to the same hash and sender;
 * receipts switch from `root` to `status` at Byzantium and carry blob gas for type 3; proofs verify
 * against the stateRoot at every fork.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { Transaction } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { result } from '../../../support/http.js';
import { UNLIMITED } from '../seed.js';

const SEED = fileURLToPath(new URL('../../../fixtures/forks/seed.json', import.meta.url));
const BASE = [
  'blockHash',
  'blockNumber',
  'blockTimestamp',
  'from',
  'gas',
  'gasPrice',
  'hash',
  'input',
  'nonce',
  'to',
  'transactionIndex',
  'value',
  'type',
  'v',
  'r',
  's',
];
const TYPED = [...BASE, 'accessList', 'chainId', 'yParity'];
const FEE = [...TYPED, 'maxFeePerGas', 'maxPriorityFeePerGas'];
const KEYS: Record<string, string[]> = {
  '0x1': TYPED,
  '0x2': FEE,
  '0x3': [...FEE, 'maxFeePerBlobGas', 'blobVersionedHashes'],
  '0x4': [...FEE, 'authorizationList'],
};

let gw: Gateway;
let url: string;
const rpc = (method: string, params: unknown[] = []) => result(url, method, params);
const word = (q: string) => '0x' + q.slice(2).padStart(64, '0');
const bytes = (h: string) => Uint8Array.from(Buffer.from(h.slice(2), 'hex'));

/** ethers' Transaction from a wire transaction object. */
function rebuild(w: any): Transaction {
  const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v));
  return Transaction.from({
    type: Number(w.type),
    chainId: big(w.chainId),
    nonce: Number(w.nonce),
    gasLimit: BigInt(w.gas),
    gasPrice: Number(w.type) < 2 ? BigInt(w.gasPrice) : undefined,
    maxFeePerGas: big(w.maxFeePerGas),
    maxPriorityFeePerGas: big(w.maxPriorityFeePerGas),
    maxFeePerBlobGas: big(w.maxFeePerBlobGas),
    blobVersionedHashes: w.blobVersionedHashes,
    authorizationList: w.authorizationList?.map((a: any) => ({
      chainId: BigInt(a.chainId),
      address: a.address,
      nonce: BigInt(a.nonce),
      signature: { r: word(a.r), s: word(a.s), yParity: Number(a.yParity) },
    })),
    to: w.to,
    value: BigInt(w.value),
    data: w.input,
    accessList: w.accessList,
    signature: { r: word(w.r), s: word(w.s), v: Number(w.v) },
  });
}

let blocks: any[] = [];
beforeAll(async () => {
  gw = await start({ port: 0, chains: [SEED], keys: UNLIMITED });
  url = gw.url('forks');
  const head = Number(await rpc('eth_blockNumber'));
  blocks = await Promise.all(Array.from({ length: head + 1 }, (_, n) => rpc('eth_getBlockByNumber', ['0x' + n.toString(16), true])));
});
afterAll(() => gw?.stop());

describe('imported fork chain', () => {
  it('every transaction has its type’s fields and rebuilds to the same hash and sender', () => {
    const types = new Set<string>();
    for (const block of blocks) {
      for (const tx of block.transactions) {
        types.add(tx.type);
        const expected = tx.type === '0x0' ? (tx.chainId === undefined ? BASE : [...BASE, 'chainId']) : KEYS[tx.type]!;
        expect(Object.keys(tx).sort(), `${block.number}/${tx.transactionIndex}`).toEqual([...expected].sort());
        const rebuilt = rebuild(tx);
        expect(rebuilt.hash).toBe(tx.hash);
        expect(rebuilt.from?.toLowerCase()).toBe(tx.from);
        if (tx.maxFeePerGas !== undefined) {
          const effective = BigInt(block.baseFeePerGas) + BigInt(tx.maxPriorityFeePerGas);
          expect(BigInt(tx.gasPrice)).toBe(effective < BigInt(tx.maxFeePerGas) ? effective : BigInt(tx.maxFeePerGas));
        }
      }
    }
    expect([...types].sort()).toEqual(['0x0', '0x1', '0x2', '0x3', '0x4']);
  });

  it('receipts carry root before Byzantium and status after, and blob gas for type 3', async () => {
    let roots = 0;
    let statuses = 0;
    let blobReceipts = 0;
    for (const block of blocks) {
      const receipts = await rpc('eth_getBlockReceipts', [block.number]);
      expect(receipts.map((r: any) => r.transactionHash)).toEqual(block.transactions.map((t: any) => t.hash));
      for (const r of receipts) {
        expect('root' in r !== 'status' in r).toBe(true);
        if ('root' in r) roots++;
        else statuses++;
        if (r.type === '0x3') {
          blobReceipts++;
          expect(BigInt(r.blobGasUsed)).toBeGreaterThan(0n);
          expect(BigInt(r.blobGasPrice)).toBeGreaterThan(0n);
        } else expect(r).not.toHaveProperty('blobGasUsed');
      }
    }
    expect(roots).toBeGreaterThan(0);
    expect(statuses).toBeGreaterThan(0);
    expect(blobReceipts).toBeGreaterThan(0);
  });

  it('blocks carry the fields of their fork; fee history reports blob fees after Cancun', async () => {
    const withBlobs = blocks.filter((b) => b.excessBlobGas !== undefined);
    expect(withBlobs.length).toBeGreaterThan(0);
    expect(blocks.filter((b) => b.baseFeePerGas === undefined).length).toBeGreaterThan(0);
    const history = await rpc('eth_feeHistory', ['0x2', 'latest', [50]]);
    expect(history.baseFeePerBlobGas).toHaveLength(3);
    expect(history.blobGasUsedRatio).toHaveLength(2);
    expect(await rpc('eth_blobBaseFee')).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
  });

  it("fee history answers blob fees and ratios for every block, as geth: zeros before Cancun, each block over its fork's max (bpo too)", async () => {
    const { config } = JSON.parse(readFileSync(fileURLToPath(new URL('../../../fixtures/forks/genesis.json', import.meta.url)), 'utf8'));
    const forks = ['cancun', 'prague', 'osaka', 'bpo1', 'bpo2'];
    const maxBlobs = (time: number) =>
      forks
        .filter((f) => time >= config[`${f}Time`])
        .map((f) => config.blobSchedule[f].max)
        .pop() ?? 0;
    const history = await rpc('eth_feeHistory', ['0x' + blocks.length.toString(16), 'latest', []]);
    expect(history.baseFeePerBlobGas).toHaveLength(blocks.length + 1);
    let bpo = 0;
    blocks.forEach((b, n) => {
      if (b.blobGasUsed === undefined) {
        expect([history.baseFeePerBlobGas[n], history.blobGasUsedRatio[n]], `block ${n}`).toEqual(['0x0', 0]);
        return;
      }
      const max = maxBlobs(Number(b.timestamp));
      if (Number(b.timestamp) >= config.bpo1Time && Number(b.blobGasUsed) > 0) bpo++;
      expect(history.blobGasUsedRatio[n], `block ${n}`).toBe(Number(b.blobGasUsed) / (max * 131072));
      expect(BigInt(history.baseFeePerBlobGas[n])).toBeGreaterThan(0n);
    });
    expect(bpo).toBeGreaterThan(0);
  });

  it('uncles of the proof-of-work era are listed and counted', async () => {
    const withUncles = blocks.filter((b) => b.uncles.length > 0);
    expect(withUncles.length).toBeGreaterThan(0);
    for (const b of withUncles) {
      expect(b.uncles.every((u: string) => /^0x[0-9a-f]{64}$/.test(u))).toBe(true);
      expect(await rpc('eth_getUncleCountByBlockNumber', [b.number])).toBe('0x' + b.uncles.length.toString(16));
      expect(await rpc('eth_getUncleCountByBlockHash', [b.hash])).toBe('0x' + b.uncles.length.toString(16));
      expect(b.sha3Uncles).not.toBe('0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347');
    }
  });

  it('proofs verify against the stateRoot of a block in every era', async () => {
    const senders = [...new Set(blocks.flatMap((b) => b.transactions.map((t: any) => t.from)))];
    for (const n of [1, Math.floor(blocks.length / 2), blocks.length - 1]) {
      const block = blocks[n];
      for (const address of [senders[0], '0x000000000000000000000000000000000000beef']) {
        const proof = await rpc('eth_getProof', [address, [], block.number]);
        const leaf = await verifyMerkleProof(bytes(address), proof.accountProof.map(bytes), { useKeyHashing: true, root: bytes(block.stateRoot) });
        expect(leaf === null).toBe(proof.codeHash === '0x' + '00'.repeat(32));
      }
    }
  });
});
