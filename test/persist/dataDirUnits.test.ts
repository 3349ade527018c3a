/**
 * The data directory's parts, in-process: the LMDB file check (a foreign or truncated file is refused before LMDB,
 * which crashes on one, opens it), the record codecs, and the durable node store (reads fall back to the store,
 * writes are noted until committed).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeIndex, decodeBody, encodeIndex, headNumberOf, nodeHex, nodeKey } from '../../src/eth/engine/persist/dataDir/codec.js';
import { lmdbFileProblem } from '../../src/persist/lmdbFile.js';
import { DurableNodes } from '../../src/eth/engine/persist/dataDir/nodes.js';
import { DataDir } from '../../src/persist/store.js';
import type { MinedBlock } from '../../src/eth/engine/chain/types.js';

const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'devgate-datadir-unit-'));
  dirs.push(d);
  return d;
};
afterAll(() =>
  dirs.forEach((d) => {
    rmSync(d, { recursive: true, force: true });
  }),
);

describe('the LMDB file check', () => {
  it('passes a store devgate wrote and refuses garbage, a truncated store and an empty page', async () => {
    const dir = fresh();
    const dd = DataDir.open(dir);
    const db = dd.network('eth', 'x');
    await db.transaction(() => {
      for (let i = 0; i < 2000; i++) db.put(nodeKey(i.toString(16).padStart(64, '0')), new Uint8Array(200).fill(i & 0xff));
    });
    await dd.close();
    const file = join(dir, 'chains.mdb');
    expect(lmdbFileProblem(file)).toBeUndefined();

    const bytes = readFileSync(file);
    const cut = join(fresh(), 'chains.mdb');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(lmdbFileProblem(cut)).toMatch(/truncated/);

    const garbage = join(fresh(), 'chains.mdb');
    writeFileSync(garbage, Buffer.alloc(8192, 0x5a));
    expect(lmdbFileProblem(garbage)).toMatch(/meta page 0/);

    const secondBad = join(fresh(), 'chains.mdb');
    copyFileSync(file, secondBad);
    const b = readFileSync(secondBad);
    b.fill(0, 4096, 8192);
    writeFileSync(secondBad, b);
    expect(lmdbFileProblem(secondBad)).toMatch(/meta page 1/);
  });
});

describe('opening', () => {
  it('refuses a file given as the directory', () => {
    const file = join(fresh(), 'plain.txt');
    writeFileSync(file, 'x');
    expect(() => DataDir.open(file)).toThrow(/is a file, not a data directory/);
  });
});

describe('the records', () => {
  it('an index record gives back hash, total difficulty and transaction hashes; a malformed one is refused', () => {
    const hash = new Uint8Array(32).fill(1);
    const txHashes = [new Uint8Array(32).fill(2), new Uint8Array(32).fill(3)];
    const bytes = encodeIndex({ hash, totalDifficulty: 131_072n * 5n, txHashes } as unknown as MinedBlock);
    const back = decodeIndex(bytes);
    expect(back.hash).toEqual(hash);
    expect(back.totalDifficulty).toBe(655_360n);
    expect(back.txHashes).toEqual(txHashes);
    expect(decodeIndex(encodeIndex({ hash, totalDifficulty: 0n, txHashes: [] } as unknown as MinedBlock)).totalDifficulty).toBe(0n);
    expect(() => decodeIndex(bytes.subarray(0, bytes.length - 1))).toThrow(/malformed/);
    expect(() => decodeIndex(new Uint8Array(10))).toThrow(/malformed/);
  });

  it('a body record too short for what it announces is refused, naming the block', () => {
    const body = new Uint8Array(8);
    new DataView(body.buffer).setUint32(0, 100, true);
    expect(() => decodeBody(body, 7n)).toThrow(/block 7 is malformed/);
  });

  it('node keys round-trip; a head record that is not RLP is refused', () => {
    const hex = 'ab'.repeat(32);
    expect(nodeHex(nodeKey(hex))).toBe(hex);
    expect(() => nodeKey('xyz')).toThrow(/not hex/);
    expect(() => headNumberOf(Uint8Array.of(0xf9))).toThrow(/head record is malformed/);
  });
});

describe('the durable node store', () => {
  it('reads a stored node on first use, notes writes until taken, and walks every stored node', async () => {
    const dd = DataDir.open(fresh());
    const db = dd.network('eth', 'n');
    const stored = 'cd'.repeat(32);
    await db.put(nodeKey(stored), Uint8Array.of(1, 2, 3));
    await db.flushed;
    const nodes = new DurableNodes(db);
    expect(nodes.get(stored)).toEqual(Uint8Array.of(1, 2, 3));
    expect(nodes.has('ef'.repeat(32))).toBe(false);
    nodes.set('01'.repeat(32), Uint8Array.of(9));
    expect([...nodes.takeDirty()]).toEqual(['01'.repeat(32)]);
    expect(nodes.takeDirty().size).toBe(0);
    nodes.giveBack(['01'.repeat(32)]);
    expect(nodes.takeDirty().size).toBe(1);
    expect(new Set(nodes.keys())).toEqual(new Set([stored, '01'.repeat(32)]));
    await dd.close();
  });
});
