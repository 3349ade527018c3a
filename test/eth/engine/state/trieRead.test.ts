/**
 * trieGet (trieRead.ts) walks a trie's nodes in their RLP bytes: it must find exactly what
 * @ethereumjs/mpt finds, for hashed keys (state and storage tries), for short raw keys whose nodes are
 * embedded in their parents, for keys that end at a branch, and for absent keys, with nodes stored
 * as bytes or as hex strings.
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { MapDB, ValueEncoding } from '@ethereumjs/util';
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { trieGet, type NodeStore } from '../../../../src/eth/engine/state/trieRead.js';
import { prng as mulberry32 } from '../../../support/prng.js';

/** A value as plain bytes (a store of hex strings hands out Buffer views). */
const bytes = (v: Uint8Array | null) => (v === null ? null : Uint8Array.from(v));

function randomBytes(rand: () => number, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => Math.floor(rand() * 256));
}

async function trieOf(encoding: ValueEncoding, hashed: boolean, entries: [Uint8Array, Uint8Array][]) {
  const store = new Map<string, Uint8Array | string>();
  const trie = new MerklePatriciaTrie({ db: new MapDB(store as never), valueEncoding: encoding, useKeyHashing: hashed });
  for (const [k, v] of entries) await trie.put(k, v);
  return { trie, store: store as NodeStore };
}

describe('trieGet', () => {
  for (const encoding of [ValueEncoding.Bytes, ValueEncoding.String]) {
    it(`finds what the MPT finds: hashed keys, 1,000 entries, nodes as ${encoding === ValueEncoding.Bytes ? 'bytes' : 'hex'}`, async () => {
      const rand = mulberry32(11);
      const entries = Array.from({ length: 1000 }, (): [Uint8Array, Uint8Array] => [randomBytes(rand, 20), randomBytes(rand, 1 + Math.floor(rand() * 70))]);
      const { trie, store } = await trieOf(encoding, true, entries);
      const probes = [...entries.map(([k]) => k), ...Array.from({ length: 500 }, () => randomBytes(rand, 20))];
      for (const key of probes) expect(bytes(trieGet(store, trie.root(), keccak256(key)))).toEqual(await trie.get(key));
    });
  }

  it('finds what the MPT finds: short raw keys (embedded nodes, values at branches, prefixes of other keys)', async () => {
    const rand = mulberry32(5);
    const entries = Array.from({ length: 400 }, (): [Uint8Array, Uint8Array] => [
      randomBytes(rand, 1 + Math.floor(rand() * 3)),
      randomBytes(rand, 1 + Math.floor(rand() * 3)),
    ]);
    const { trie, store } = await trieOf(ValueEncoding.Bytes, false, entries);
    const probes = [...entries.map(([k]) => k), ...Array.from({ length: 400 }, () => randomBytes(rand, Math.floor(rand() * 4)))];
    let found = 0;
    for (const key of probes) {
      const want = await trie.get(key);
      if (want !== null) found++;
      expect(trieGet(store, trie.root(), key), Buffer.from(key).toString('hex')).toEqual(want);
    }
    expect(found).toBeGreaterThan(300);
  });

  it('answers null on the empty trie and throws on a root the store does not hold', () => {
    const empty = new MerklePatriciaTrie().root();
    expect(trieGet(new Map(), empty, new Uint8Array(32))).toBeNull();
    expect(() => trieGet(new Map(), new Uint8Array(32).fill(1), new Uint8Array(32))).toThrow(/missing trie node/);
  });
});
