/**
 * formatBlock and formatReceipt on blocks built directly: every header field of a prague block with
 * withdrawals, full transactions or hashes, pending nulls; receipts with status or root (never both),
 * blob gas fields for type 3, logs with their placement.
 */
import { createBlockFromRPC } from '@ethereumjs/block';
import { createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { StoredReceipt } from '../../../src/eth/engine/chain/types.js';
import { formatBlock } from '../../../src/eth/format/block.js';
import { formatBlockReceipts, formatReceipt } from '../../../src/eth/format/receipt.js';
import { minedBlock, pragueCommon, TO } from './fixtures.js';

const common = pragueCommon();
const mined = await minedBlock(common);
const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

describe('formatBlock', () => {
  it('gives every header field in alphabetical order, as geth marshals a block', () => {
    const b = formatBlock(mined, { fullTransactions: false }) as Record<string, any>;
    expect(Object.keys(b)).toEqual([...Object.keys(b)].sort());
    expect(b).toMatchObject({
      number: '0x5',
      hash: hex(mined.hash),
      baseFeePerGas: '0x7',
      blobGasUsed: '0x20000',
      excessBlobGas: '0x0',
      parentBeaconBlockRoot: '0x' + '00'.repeat(32),
      totalDifficulty: '0x7b',
      timestamp: '0x6553f100',
      gasLimit: '0x1c9c380',
      size: '0x' + mined.block.serialize().length.toString(16),
      withdrawals: [{ index: '0x1', validatorIndex: '0x2', address: TO, amount: '0x3' }],
      uncles: [],
    });
    expect(b.requestsHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(b.transactions).toEqual(mined.block.transactions.map((t) => hex(t.hash())));
  });

  it('with full transactions, @ethereumjs rebuilds the same block (hash, size, tx trie) from the wire', async () => {
    const b = formatBlock(mined, { fullTransactions: true }) as Record<string, any>;
    expect(b.transactions.map((t: { hash: string }) => t.hash)).toEqual(mined.block.transactions.map((t) => hex(t.hash())));
    const rebuilt = createBlockFromRPC(b as never, [], { common });
    expect(hex(rebuilt.hash())).toBe(b.hash);
    expect(await rebuilt.transactionsTrieIsValid()).toBe(true);
    expect(rebuilt.serialize().length).toBe(Number(b.size));
  });

  it('the pending block has null hash, logsBloom, nonce and number, and pending transactions', () => {
    const b = formatBlock(mined, { fullTransactions: true, pending: true }) as Record<string, any>;
    expect([b.hash, b.logsBloom, b.nonce, b.number]).toEqual([null, null, null, null]);
    expect(b.parentHash).toBe(hex(mined.block.header.parentHash));
    for (const tx of b.transactions) expect([tx.blockHash, tx.blockNumber, tx.transactionIndex]).toEqual([null, null, null]);
  });
});

describe('formatReceipt', () => {
  it('from Byzantium on: status, never root; contractAddress null; blob gas for type 3 only', () => {
    const receipts = formatBlockReceipts(mined) as Record<string, any>[];
    receipts.forEach((r, i) => {
      expect(r.status).toBe('0x1');
      expect(r).not.toHaveProperty('root');
      expect(r.contractAddress).toBeNull();
      expect(r.type).toBe('0x' + i.toString(16));
      expect(r.transactionIndex).toBe('0x' + i.toString(16));
      expect(r.blockHash).toBe(hex(mined.hash));
      if (i === 3) expect([r.blobGasUsed, r.blobGasPrice]).toEqual(['0x20000', '0x1']);
      else expect(r).not.toHaveProperty('blobGasUsed');
      expect(Object.keys(r)).toEqual([...Object.keys(r)].sort());
    });
  });

  it('before Byzantium: root, never status; logs with placement; a creation names its contract', () => {
    const log = { address: createAddressFromString(TO), topics: [new Uint8Array(32).fill(1)], data: new Uint8Array([1, 2]), logIndex: 4 };
    const preByzantium: StoredReceipt[] = mined.block.transactions.map((_, i) => ({
      root: new Uint8Array(32).fill(i + 1),
      cumulativeGasUsed: 21000n,
      gasUsed: 21000n,
      effectiveGasPrice: 10n,
      logsBloom: new Uint8Array(256),
      logs: i === 1 ? [log] : [],
      contractAddress: i === 2 ? createAddressFromString('0x5fbdb2315678afecb367f032d93f642f64180aa3') : undefined,
    }));
    const block = { ...mined, receipts: preByzantium };
    const r0 = formatReceipt(block, 0) as Record<string, any>;
    expect(r0.root).toBe('0x' + '01'.repeat(32));
    expect(r0).not.toHaveProperty('status');
    const r1 = formatReceipt(block, 1) as Record<string, any>;
    expect(r1.logs).toEqual([
      {
        address: TO,
        topics: ['0x' + '01'.repeat(32)],
        data: '0x0102',
        blockNumber: '0x5',
        transactionHash: hex(mined.block.transactions[1]!.hash()),
        transactionIndex: '0x1',
        blockHash: hex(mined.hash),
        blockTimestamp: '0x' + mined.header.timestamp.toString(16),
        logIndex: '0x4',
        removed: false,
      },
    ]);
    expect((formatReceipt(block, 2) as Record<string, any>).contractAddress).toBe('0x5fbdb2315678afecb367f032d93f642f64180aa3');
  });
});

describe('block forms', () => {
  it('each form keeps its own shape (the text made once per form: wire-text.test.ts)', () => {
    const hashes = formatBlock(mined, { fullTransactions: false });
    const full = formatBlock(mined, { fullTransactions: true });
    const pending = formatBlock(mined, { fullTransactions: false, pending: true });
    expect((full.transactions as unknown[])[0]).toBeTypeOf('object');
    expect((hashes.transactions as unknown[])[0]).toBeTypeOf('string');
    expect(pending.hash).toBeNull();
    expect(hashes.hash).toBe(hex(mined.hash));
    expect(formatBlockReceipts(mined)[0]).toEqual(formatReceipt(mined, 0));
  });
});
