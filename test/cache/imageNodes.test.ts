/**
 * ImageNodes, the node store of a restored chain image: a Map over the file's bytes that must behave
 * exactly like the plain Map it replaces, through reads, writes, overwrites, deletes and iteration.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ImageNodes } from '../../src/eth/engine/image/imageNodes.js';

/** The node section of a chain image for `entries` (u8 key length, key bytes, u32 LE value length, value), after `pad` bytes. */
function section(entries: [string, Uint8Array][], pad = 3): Uint8Array {
  const parts: Buffer[] = [Buffer.alloc(pad, 0xee)];
  for (const [k, v] of entries) {
    const key = Buffer.from(k, 'hex');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(v.length);
    parts.push(Buffer.of(key.length), key, length, Buffer.from(v));
  }
  return new Uint8Array(Buffer.concat(parts));
}

const hash = (i: number, bytes = 32) => createHash('sha256').update(String(i)).digest().subarray(0, bytes).toString('hex');
const value = (i: number) =>
  Uint8Array.from(
    createHash('sha256')
      .update(`v${i}`)
      .digest()
      .subarray(0, 1 + (i % 40)),
  );

describe('ImageNodes', () => {
  it('answers like a plain Map through reads, writes, deletes and iteration', () => {
    // Hashes, longer keys (prefixed storage keys), short and empty keys, an empty value.
    const entries: [string, Uint8Array][] = [
      ...Array.from({ length: 2000 }, (_, i): [string, Uint8Array] => [hash(i), value(i)]),
      ...Array.from({ length: 50 }, (_, i): [string, Uint8Array] => [hash(i) + hash(i + 5000, 7), value(i + 7)]),
      ['01', value(1)],
      ['', value(2)],
      ['abcdef', new Uint8Array()],
    ];
    const buf = section(entries);
    const nodes = new ImageNodes(buf, 3, entries.length);
    expect(nodes.end).toBe(buf.length);
    const plain = new Map(entries);
    const same = (k: string) => expect(nodes.get(k)).toEqual(plain.get(k));

    for (const [k] of entries.slice(0, 300)) same(k);
    for (const k of ['00', hash(99999), hash(1).slice(0, 62), 'ff'.repeat(32)]) same(k);
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let step = 0; step < 3000; step++) {
      const k = rnd(4) === 0 ? hash(100000 + rnd(200)) : entries[rnd(entries.length)]![0];
      switch (rnd(4)) {
        case 0:
          nodes.set(k, value(step));
          plain.set(k, value(step));
          break;
        case 1:
          expect(nodes.delete(k)).toBe(plain.delete(k));
          break;
        case 2:
          expect(nodes.has(k)).toBe(plain.has(k));
          break;
        default:
          same(k);
      }
    }
    expect(nodes.size).toBe(plain.size);
    expect(new Map(nodes)).toEqual(plain);
    // Once complete it is a plain Map.
    nodes.delete(entries[0]![0]);
    plain.delete(entries[0]![0]);
    same(entries[0]![0]);
    expect([...nodes.keys()].sort()).toEqual([...plain.keys()].sort());
  });

  it('finds nodes by their key bytes as get finds them by hex, and stands aside once the file is overwritten or deleted from', () => {
    const entries: [string, Uint8Array][] = [
      ...Array.from({ length: 500 }, (_, i): [string, Uint8Array] => [hash(i), value(i)]),
      ['01', value(1)],
      ['', value(2)],
    ];
    const nodes = new ImageNodes(section(entries), 3, entries.length);
    const plain = new Map(entries);
    const bytes = (k: string) => Uint8Array.from(Buffer.from(k, 'hex'));
    const agrees = (k: string) => {
      const found = nodes.byBytes(bytes(k));
      if (found !== undefined) expect(found).toEqual(plain.get(k));
      return found !== undefined;
    };
    for (const [k] of entries) expect(agrees(k)).toBe(true);
    for (const k of [hash(99999), '00', hash(1).slice(0, 62)]) expect(agrees(k)).toBe(false);
    // New nodes and a node of the file written again with its own bytes keep the fast path.
    nodes.set(hash(7000), value(7000));
    plain.set(hash(7000), value(7000));
    nodes.set(hash(3), value(3));
    expect(agrees(hash(3))).toBe(true);
    expect(agrees(hash(7000))).toBe(false);
    // Other bytes for a node of the file: only get answers from then on.
    nodes.set(hash(4), value(5));
    plain.set(hash(4), value(5));
    for (const [k] of entries) expect(agrees(k)).toBe(false);
    expect(nodes.get(hash(4))).toEqual(value(5));
    const deleting = new ImageNodes(section(entries), 3, entries.length);
    deleting.delete(hash(9));
    expect(deleting.byBytes(bytes(hash(10)))).toBeUndefined();
    expect(deleting.get(hash(9))).toBeUndefined();
  });

  it('refuses a node section that runs past the end', () => {
    const buf = section([
      [hash(1), value(1)],
      [hash(2), value(2)],
    ]);
    expect(() => new ImageNodes(buf.subarray(0, buf.length - 1), 3, 2)).toThrow(/truncated/);
    expect(() => new ImageNodes(buf, 3, 3)).toThrow(/truncated/);
  });
});
