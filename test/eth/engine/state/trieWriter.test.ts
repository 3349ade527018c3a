/**
 * The TrieWriter must give @ethereumjs's roots and store nodes @ethereumjs can read: random batches
 * of puts and deletes (secure keys, short values whose nodes are embedded, variable-length keys)
 * are applied to both, and every root and every value read back must agree.
 */
import { describe, expect, it } from 'vitest';
import { genTransactionsTrieRoot } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, KECCAK256_RLP, MapDB, ValueEncoding } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeRawNode, encodeRawNode, nibbles, TrieWriter, type RawNode, type TrieUpdate } from '../../../../src/eth/engine/state/trieWriter.js';
import { prng } from '../../../support/prng.js';

const bytes = (rand: () => number, n: number) => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
/** A decoded node as hex strings in nested arrays: toEqual over thousands of Uint8Arrays compares byte by byte, slowly. */
type Hexes = string | Hexes[];
const hexes = (x: unknown): Hexes => (x instanceof Uint8Array ? bytesToHex(x) : (x as unknown[]).map(hexes));

describe('TrieWriter', () => {
  it('gives the roots of @ethereumjs secure tries over random batches of puts and deletes, in a store @ethereumjs reads', async () => {
    for (const seed of [1, 2, 3]) {
      const rand = prng(seed);
      const map = new Map<string, Uint8Array>();
      const writer = new TrieWriter({ get: (k) => map.get(k), put: (k, v) => map.set(k, v) });
      const reference = new MerklePatriciaTrie({ useKeyHashing: true, db: new MapDB(), valueEncoding: ValueEncoding.Bytes });
      const keys = Array.from({ length: 60 }, () => bytes(rand, 20));
      let root = KECCAK256_RLP;
      const live = new Map<string, Uint8Array>();
      for (let batch = 0; batch < 40; batch++) {
        const updates: TrieUpdate[] = [];
        for (let i = 0; i < 1 + Math.floor(rand() * 12); i++) {
          const key = keys[Math.floor(rand() * keys.length)]!;
          // Short values make nodes under 32 bytes (embedded in their parent); empty ones delete.
          const value = rand() < 0.25 ? new Uint8Array() : bytes(rand, rand() < 0.5 ? 1 + Math.floor(rand() * 3) : 40);
          updates.push({ path: nibbles(keccak_256(key)), value: value.length === 0 ? null : value });
          if (value.length === 0) {
            await reference.del(key);
            live.delete(bytesToHex(key));
          } else {
            await reference.put(key, value);
            live.set(bytesToHex(key), value);
          }
        }
        root = writer.apply(root, updates);
        expect(bytesToHex(root)).toBe(bytesToHex(reference.root()));
      }
      // The writer's own store answers @ethereumjs reads at its root.
      const reader = new MerklePatriciaTrie({ useKeyHashing: true, db: new MapDB(map), valueEncoding: ValueEncoding.Bytes, root });
      for (const key of keys) {
        const got = await reader.get(key);
        const want = live.get(bytesToHex(key));
        expect(got === null ? undefined : bytesToHex(got)).toBe(want === undefined ? undefined : bytesToHex(want));
      }
    }
  });

  it('matches @ethereumjs on short, unhashed keys: embedded nodes, and keys that are prefixes of others (branch values)', async () => {
    for (const seed of [4, 5, 6, 7]) {
      const rand = prng(seed);
      const map = new Map<string, Uint8Array>();
      const writer = new TrieWriter({ get: (k) => map.get(k), put: (k, v) => map.set(k, v) });
      const reference = new MerklePatriciaTrie({ db: new MapDB(), valueEncoding: ValueEncoding.Bytes });
      const keys = Array.from({ length: 40 }, () => bytes(rand, 1 + Math.floor(rand() * 2)).map((b) => b % 4));
      let root = KECCAK256_RLP;
      for (let batch = 0; batch < 60; batch++) {
        const updates: TrieUpdate[] = [];
        for (let i = 0; i < 1 + Math.floor(rand() * 5); i++) {
          const key = keys[Math.floor(rand() * keys.length)]!;
          const value = rand() < 0.35 ? new Uint8Array() : bytes(rand, 1 + Math.floor(rand() * (rand() < 0.8 ? 3 : 40)));
          updates.push({ path: nibbles(key), value: value.length === 0 ? null : value });
          if (value.length === 0) await reference.del(key);
          else await reference.put(key, value);
        }
        root = writer.apply(root, updates);
        expect(bytesToHex(root)).toBe(bytesToHex(reference.root()));
      }
    }
  });

  it('gives the roots of ordered (tx and receipt) tries, whose keys are RLP indexes of any count', async () => {
    for (const count of [0, 1, 2, 15, 16, 17, 127, 128, 129, 300]) {
      const rand = prng(count);
      const entries: [Uint8Array, Uint8Array][] = Array.from({ length: count }, (_, i) => [RLP.encode(i), bytes(rand, 1 + Math.floor(rand() * 100))]);
      const reference = new MerklePatriciaTrie();
      for (const [k, v] of entries) await reference.put(k, v);
      expect(bytesToHex(TrieWriter.root(entries))).toBe(bytesToHex(reference.root()));
    }
  });

  it('root(): keys that are prefixes of others, repeated keys (the last wins) and empty values (none) as @ethereumjs puts them in order', async () => {
    for (const seed of [31, 32, 33, 34, 35, 36]) {
      const rand = prng(seed);
      const reference = new MerklePatriciaTrie({ db: new MapDB(), valueEncoding: ValueEncoding.Bytes });
      const entries: [Uint8Array, Uint8Array][] = [];
      for (let i = 0; i < 1 + Math.floor(rand() * 60); i++) {
        const key = bytes(rand, 1 + Math.floor(rand() * 2)).map((b) => b % (seed % 2 === 0 ? 3 : 256));
        const value = rand() < 0.15 ? new Uint8Array() : bytes(rand, 1 + Math.floor(rand() * (rand() < 0.7 ? 4 : 60)));
        entries.push([key, value]);
        if (value.length === 0) await reference.del(key);
        else await reference.put(key, value);
      }
      expect(bytesToHex(TrieWriter.root(entries))).toBe(bytesToHex(reference.root()));
    }
  });

  it('root(): the transactions root of signed transactions as @ethereumjs genTransactionsTrieRoot gives it', async () => {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const key = keccak_256(Uint8Array.of(1));
    for (const count of [1, 5, 16, 17, 130]) {
      const txs = Array.from({ length: count }, (_, i) =>
        createFeeMarket1559Tx(
          { nonce: i, gasLimit: 21000 + i, maxFeePerGas: 7n, to: `0x${'11'.repeat(20)}`, value: BigInt(i), data: Uint8Array.of(i & 255) },
          { common },
        ).sign(key),
      );
      const want = await genTransactionsTrieRoot(txs, new MerklePatriciaTrie({ common }));
      expect(bytesToHex(TrieWriter.root(txs.map((tx, i) => [RLP.encode(i), tx.serialize()])))).toBe(bytesToHex(want));
    }
  });

  it('deletes down to the empty root, and ignores deletes of absent keys', () => {
    const map = new Map<string, Uint8Array>();
    const writer = new TrieWriter({ get: (k) => map.get(k), put: (k, v) => map.set(k, v) });
    const paths = [1, 2, 3].map((i) => nibbles(keccak_256(Uint8Array.of(i))));
    let root = writer.apply(
      KECCAK256_RLP,
      paths.map((path) => ({ path, value: Uint8Array.of(7) })),
    );
    const full = root;
    root = writer.apply(root, [{ path: nibbles(keccak_256(Uint8Array.of(9))), value: null }]);
    expect(root).toEqual(full);
    root = writer.apply(
      root,
      paths.map((path) => ({ path, value: null })),
    );
    expect(root).toEqual(KECCAK256_RLP);
  });

  it('encodes (and decodes) raw nodes as RLP.encode (RLP.decode) does: empty, single bytes, short and long strings, nested and long lists', () => {
    const rand = prng(11);
    const item = (depth: number): Uint8Array | RawNode => {
      if (depth < 3 && rand() < 0.2) return Array.from({ length: Math.floor(rand() * (rand() < 0.3 ? 20 : 4)) }, () => item(depth + 1));
      const r = rand();
      const n = r < 0.1 ? 0 : r < 0.3 ? 1 : r < 0.6 ? 2 + Math.floor(rand() * 54) : r < 0.8 ? 55 + Math.floor(rand() * 3) : 56 + Math.floor(rand() * 300);
      return bytes(rand, n);
    };
    for (let i = 0; i < 2000; i++) {
      const raw = Array.from({ length: rand() < 0.5 ? 17 : 2 }, () => item(0));
      const encoded = encodeRawNode(raw);
      expect(bytesToHex(encoded)).toBe(bytesToHex(RLP.encode(raw)));
      expect(hexes(decodeRawNode(encoded))).toEqual(hexes(RLP.decode(encoded)));
    }
    for (const bad of [[], [0xc2, 0x80], [0x80], [0xc1, 0x80, 0x80], [0xf8, 0x00], [0xb8, 0x38]])
      expect(() => decodeRawNode(Uint8Array.from(bad))).toThrow(/invalid trie node/);
    const big = [bytes(rand, 70000), [bytes(rand, 300)]];
    expect(bytesToHex(encodeRawNode(big))).toBe(bytesToHex(RLP.encode(big)));
  });
});
