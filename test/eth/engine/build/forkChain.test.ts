/**
 * Importing the fork-crossing fixture chain (scripts/make-fork-chain.ts): homestead PoW blocks, the
 * merge by terminal total difficulty, shanghai to bpo2 by timestamp, transactions of types 0 to 4
 * with real KZG blobs. Every block executes to its header's roots on a fresh engine.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import type { Blob4844Tx, TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToHex, computeVersionedHash, concatBytes, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { encodeReceipt, type TxReceipt } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { importGethChain, type ImportStats } from '../../../../src/eth/engine/build/import.js';
import { kzgLoaded, realKzg } from '../../../../src/eth/engine/exec/kzg.js';
import { splitBlocks } from '../../../../src/eth/engine/build/rlp.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';

const DIR = fileURLToPath(new URL('../../../fixtures/forks/', import.meta.url));
const genesisJson = JSON.parse(readFileSync(`${DIR}genesis.json`, 'utf8')) as { config: Record<string, unknown> };
const chainFile = new Uint8Array(readFileSync(`${DIR}chain.rlp`));
const blobs = JSON.parse(readFileSync(`${DIR}blobs.json`, 'utf8')) as { text: string; commitment: string; proof: string; versionedHash: string }[];

/** Block hashes as the file has them: keccak of each header's RLP, no engine involved. */
const fileHashes = splitBlocks(chainFile).map((raw) => bytesToHex(keccak_256(RLP.encode((RLP.decode(raw) as Uint8Array[][])[0]!))));

/** The blob encoding of the generator: 31 bytes of text per field element, top byte zero. */
function textToBlob(text: string): PrefixedHexString {
  const data = new TextEncoder().encode(text);
  const blob = new Uint8Array(4096 * 32);
  for (let i = 0; i * 31 < data.length; i++) blob.set(data.subarray(i * 31, (i + 1) * 31), i * 32 + 1);
  return bytesToHex(blob);
}

/** The receipts trie root of a mined block, recomputed from the receipts the engine stores. */
async function receiptsRoot(m: MinedBlock): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie();
  for (const [i, r] of m.receipts.entries()) {
    const receipt = {
      cumulativeBlockGasUsed: r.cumulativeGasUsed,
      bitvector: r.logsBloom,
      logs: r.logs.map((l) => [l.address.bytes, [...l.topics], l.data]),
      ...(r.status !== undefined ? { status: r.status } : { stateRoot: r.root! }),
    } as unknown as TxReceipt;
    await trie.put(RLP.encode(i), encodeReceipt(receipt, m.block.transactions[i]!.type));
  }
  return trie.root();
}

let chain: EthChain;
let stats: ImportStats;
let blocks: MinedBlock[];
const txs = () => blocks.flatMap((m) => m.block.transactions.map((tx, i) => ({ m, tx, i })));

beforeAll(async () => {
  ({ chain, stats } = await importGethChain({ genesis: genesisJson, genesisSource: 'genesis.json', chain: chainFile, chainSource: 'chain.rlp' }));
  blocks = [...chain.blocks()];
});

describe('the fork chain fixture, imported', () => {
  it('has every block of the file, with the file hashes, genesis included', () => {
    expect(stats.blocks).toBe(33);
    expect(blocks.map((m) => bytesToHex(m.hash))).toEqual(fileHashes);
    expect(chain.head().number).toBe(33n);
  });

  it('reaches the header state root and receipts root of every block (receipts recomputed from what the engine stores)', async () => {
    for (const m of blocks) {
      // stateAt checks out the header's root, which throws unless execution wrote exactly that trie.
      await expect(chain.stateAt(m), `block ${m.number}`).resolves.toBeDefined();
      expect(bytesToHex(await receiptsRoot(m)), `block ${m.number}`).toBe(bytesToHex(m.block.header.receiptTrie));
    }
  });

  it('runs each block under its own hardfork, from homestead through the merge to bpo2', () => {
    const forks = blocks.map((m) => m.block.common.hardfork());
    expect(forks[1]).toBe('homestead');
    for (const f of ['tangerineWhistle', 'spuriousDragon', 'byzantium', 'petersburg', 'berlin', 'shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2'])
      expect(forks).toContain(f);
    expect(forks[33]).toBe('bpo2');
  });

  it('merges where the terminal total difficulty says: PoW before, PoS after', () => {
    const ttd = BigInt(genesisJson.config.terminalTotalDifficulty as number);
    expect(stats.mergeBlock).toBe(18n);
    expect(blocks[16]!.totalDifficulty).toBeLessThan(ttd);
    expect(blocks[17]!.totalDifficulty).toBeGreaterThanOrEqual(ttd);
    expect(blocks.slice(1, 18).every((m) => m.block.header.difficulty > 0n)).toBe(true);
    expect(blocks.slice(18).every((m) => m.block.header.difficulty === 0n)).toBe(true);
    // The difficulty follows the ethash rules from block to block (it climbs at 5-second spacing).
    expect(blocks[17]!.block.header.difficulty).toBeGreaterThan(blocks[1]!.block.header.difficulty);
    expect(blocks[33]!.totalDifficulty).toBe(blocks[17]!.totalDifficulty);
  });

  it('pays a PoW uncle and its includer as geth does', async () => {
    const withUncle = blocks.filter((m) => m.block.uncleHeaders.length > 0);
    expect(withUncle.map((m) => m.number)).toEqual([10n]);
    const uncle = withUncle[0]!.block.uncleHeaders[0]!;
    expect(uncle.number).toBe(9n);
    // Petersburg-era block reward 2 ETH: an uncle one generation back earns 7/8 of it.
    expect(withUncle[0]!.block.common.hardfork()).toBe('petersburg');
    const account = await chain.getAccount(uncle.coinbase, withUncle[0]!);
    expect(account?.balance).toBe((2n * 10n ** 18n * 7n) / 8n);
    // The next block's difficulty counts the parent's uncle (byzantium formula).
    expect(blocks[11]!.block.header.difficulty).toBe(blocks[11]!.block.header.ethashCanonicalDifficulty(blocks[10]!.block.header));
  });

  it('holds transactions of types 0 (with and without EIP-155), 1, 2, 3 and 4', () => {
    const all = txs();
    expect(new Set(all.map(({ tx }) => tx.type))).toEqual(new Set([0, 1, 2, 3, 4]));
    const legacy = all.filter(({ tx }) => tx.type === 0).map(({ tx, m }) => ({ v: (tx as TypedTransaction & { v: bigint }).v, n: m.number }));
    expect(legacy.some(({ v, n }) => (v === 27n || v === 28n) && n >= 5n)).toBe(true); // unprotected after spurious dragon
    expect(legacy.some(({ v }) => v === 7357n * 2n + 35n || v === 7357n * 2n + 36n)).toBe(true);
  });

  it('keeps receipts with root before byzantium, status after, failures included', () => {
    const pre = blocks.slice(1, 7).flatMap((m) => m.receipts);
    const post = blocks.slice(7).flatMap((m) => m.receipts);
    expect(pre.every((r) => r.root?.length === 32 && r.status === undefined)).toBe(true);
    expect(post.every((r) => r.root === undefined && (r.status === 0 || r.status === 1))).toBe(true);
    expect(post.some((r) => r.status === 0)).toBe(true);
    expect(blocks.flatMap((m) => m.receipts).some((r) => r.contractAddress !== undefined)).toBe(true);
  });

  it('grows excess blob gas above target, with bpo1/bpo2 blob parameters from the blobSchedule', () => {
    const excess = blocks.slice(22).map((m) => m.block.header.excessBlobGas!);
    expect(excess.at(-1)).toBeGreaterThan(excess[0]!);
    const blobReceipts = blocks.flatMap((m) => m.receipts).filter((r) => r.blobGasUsed !== undefined);
    expect(blobReceipts.length).toBe(txs().filter(({ tx }) => tx.type === 3).length);
    const bpo2 = blocks[33]!.block.common;
    expect(bpo2.getBlobGasSchedule().targetBlobGasPerBlock).toBe(5n * 131072n);
  });

  it('decodes blob transactions without loading the trusted setup', () => {
    expect(kzgLoaded()).toBe(false);
  });

  it('holds blobs whose versioned hashes come from real KZG commitments, with proofs that verify', () => {
    const hashes = txs()
      .filter(({ tx }) => tx.type === 3)
      .flatMap(({ tx }) => (tx as Blob4844Tx).blobVersionedHashes);
    expect(hashes).toEqual(blobs.map((b) => b.versionedHash));
    const kzg = realKzg();
    for (const b of blobs.slice(0, 4)) {
      expect(kzg.blobToKzgCommitment(textToBlob(b.text))).toBe(b.commitment);
      expect(computeVersionedHash(b.commitment as PrefixedHexString, 1)).toBe(b.versionedHash);
    }
    const sample = blobs.slice(0, 4);
    expect(
      kzg.verifyBlobProofBatch(
        sample.map((b) => textToBlob(b.text)),
        sample.map((b) => b.commitment),
        sample.map((b) => b.proof),
      ),
    ).toBe(true);
    const tampered = textToBlob(`${sample[0]!.text}!`);
    expect(kzg.verifyBlobProofBatch([tampered], [sample[0]!.commitment], [sample[0]!.proof])).toBe(false);
  });

  it('ran the EIP-7702 delegation and the Prague history system call', async () => {
    const setCode = txs().find(({ tx }) => tx.type === 4)!;
    const authority = new Address(hexToBytes((setCode.tx as TypedTransaction & { to: Address }).to.toString() as PrefixedHexString));
    const code = await chain.getCode(authority, chain.head());
    expect(bytesToHex(code.subarray(0, 3))).toBe('0xef0100');
    const history = new Address(hexToBytes('0x0000f90827f1c53a10cb7a02335b175320002935'));
    const slot = concatBytes(new Uint8Array(31), new Uint8Array([32]));
    expect(bytesToHex(await chain.getStorage(history, slot, chain.head()))).toBe(bytesToHex(blocks[32]!.hash));
  });
});
