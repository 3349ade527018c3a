/**
 * The consensus bytes of rawBytes.ts (debug_getRaw*, uncles) over the importer's fixture chain (homestead to bpo2,
 * transaction types 0 to 4, an uncle, withdrawals): each block's bytes are the very bytes of chain.rlp; headers
 * and transactions hash to the block's and transactions' hashes; the receipts' bytes rebuild each header's
 * receiptsRoot in a fresh trie; uncles equal @ethereumjs's decoded uncle headers. A restored block (its bytes
 * kept by rawBlock.ts) answers the same bytes as a built one.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { importGethChain } from '../../../../src/eth/engine/build/import.js';
import { rawBlockFields } from '../../../../src/eth/engine/chain/rawBlock.js';
import { blockBytes, blockReceiptBytes, blockTxBytes, headerBytes, receiptBytes, txBytesAt, uncleHeaders } from '../../../../src/eth/engine/chain/rawBytes.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';

const DIR = fileURLToPath(new URL('../../../fixtures/forks/', import.meta.url));
const hex = (b: Uint8Array) => bytesToHex(b);

let blocks: MinedBlock[];
let file: Buffer;
beforeAll(async () => {
  file = readFileSync(`${DIR}chain.rlp`);
  const { chain } = await importGethChain({
    genesis: JSON.parse(readFileSync(`${DIR}genesis.json`, 'utf8')),
    genesisSource: 'genesis.json',
    chain: new Uint8Array(file),
    chainSource: 'chain.rlp',
  });
  blocks = [...chain.blocks()];
});

/** The root of a trie of `values` keyed by RLP(index), as a block's receipts and transactions roots are. */
async function indexRoot(values: Uint8Array[]): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie();
  for (const [i, v] of values.entries()) await trie.put(RLP.encode(i), v);
  return trie.root();
}

describe('raw bytes of blocks', () => {
  it('a block is the bytes chain.rlp holds for it (genesis first, as geth export writes it); its header hashes to the block hash', () => {
    let at = 0;
    for (const m of blocks) {
      const bytes = blockBytes(m);
      expect(hex(bytes), `block ${m.number}`).toBe(hex(file.subarray(at, at + bytes.length)));
      at += bytes.length;
      expect(hex(keccak_256(headerBytes(m)))).toBe(hex(m.hash));
    }
    expect(at).toBe(file.length);
  });

  it('transactions hash to their hashes and rebuild the transactions root; receipts rebuild the receipts root', async () => {
    const types = new Set<number>();
    let receipts = 0;
    for (const m of blocks) {
      const txs = blockTxBytes(m);
      expect(txs.map((t) => hex(keccak_256(t)))).toEqual(m.txHashes.map(hex));
      expect(hex(await indexRoot(txs))).toBe(hex(m.header.transactionsTrie));
      const rs = blockReceiptBytes(m);
      expect(rs).toHaveLength(txs.length);
      expect(hex(await indexRoot(rs)), `receipts of block ${m.number}`).toBe(hex(m.header.receiptTrie));
      txs.forEach((t) => {
        types.add(t[0]! >= 0xc0 ? 0 : t[0]!);
      });
      receipts += rs.length;
      expect(txBytesAt(m, txs.length)).toBeUndefined();
    }
    expect([...types].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(receipts).toBeGreaterThan(10);
  });

  it('a receipt is [status or root, cumulative gas, bloom, logs], after its type byte for a typed transaction', () => {
    const receipt = { status: 0 as const, cumulativeGasUsed: 21000n, gasUsed: 21000n, effectiveGasPrice: 1n, logsBloom: new Uint8Array(256), logs: [] };
    const legacy = receiptBytes(receipt, 0);
    expect(RLP.decode(legacy)).toEqual([new Uint8Array(), Uint8Array.of(0x52, 0x08), new Uint8Array(256), []]);
    const typed = receiptBytes({ ...receipt, status: 1 }, 2);
    expect(typed[0]).toBe(2);
    expect((RLP.decode(typed.subarray(1)) as Uint8Array[])[0]).toEqual(Uint8Array.of(1));
    const root = new Uint8Array(32).fill(7);
    expect((RLP.decode(receiptBytes({ ...receipt, status: undefined, root }, 0)) as Uint8Array[])[0]).toEqual(root);
  });

  it('uncles equal the decoded uncle headers, with the size of a block of the header alone', () => {
    let seen = 0;
    for (const m of blocks) {
      const uncles = uncleHeaders(m);
      expect(uncles.map((u) => hex(u.hash))).toEqual(m.block.uncleHeaders.map((u) => hex(u.hash())));
      m.block.uncleHeaders.forEach((u, i) => {
        const got = uncles[i]!;
        expect(hex(got.bytes)).toBe(hex(u.serialize()));
        expect(got.header.number).toBe(u.number);
        expect(got.header.coinbase.toString()).toBe(u.coinbase.toString());
        expect(hex(got.header.stateRoot)).toBe(hex(u.stateRoot));
        expect(got.size).toBe(RLP.encode([u.raw(), [], []]).length);
        seen++;
      });
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('a restored block (read from its saved bytes) gives the same bytes as the built one', () => {
    for (const m of blocks) {
      const bytes = m.block.serialize();
      const restored = { ...m, raw: rawBlockFields(bytes, keccak_256) } as MinedBlock;
      expect(blockBytes(restored)).toBe(restored.raw!.bytes);
      expect(hex(headerBytes(restored))).toBe(hex(headerBytes(m)));
      expect(blockReceiptBytes(restored).map(hex)).toEqual(blockReceiptBytes(m).map(hex));
    }
  });
});
