/** The one RLP reader: the same items as @ethereumjs/rlp's decoder on random input, and RlpError for every malformed input. */
import { RLP } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { listSpans, RlpCursor, RlpError, rlpItem, rlpViews, type Nested } from '../../../../src/eth/engine/codec/rlpReader.js';
import { prng } from '../../../support/prng.js';

type Input = Uint8Array | Input[];

function randomInput(next: () => number, depth: number): Input {
  if (depth > 3 || next() < 0.5) {
    const kind = next();
    const length = kind < 0.3 ? 1 : kind < 0.8 ? Math.floor(next() * 56) : 56 + Math.floor(next() * 400);
    return Uint8Array.from({ length }, () => Math.floor(next() * 256));
  }
  return Array.from({ length: Math.floor(next() * 6) }, () => randomInput(next, depth + 1));
}

const plain = (v: Nested | Input): unknown => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v.map(plain));

describe('rlpReader', () => {
  it('decodes 2,000 random items as @ethereumjs/rlp does, as views', () => {
    const next = prng(7);
    for (let i = 0; i < 2000; i++) {
      const input = randomInput(next, 0);
      const encoded = RLP.encode(input as never);
      const { value, end } = rlpViews(encoded, 0);
      expect(end).toBe(encoded.length);
      expect(plain(value)).toEqual(plain(RLP.decode(encoded) as Input));
      const item = rlpItem(encoded, 0);
      expect(item.isList).toBe(Array.isArray(input));
      expect(item.end).toBe(encoded.length);
      if (Array.isArray(input)) expect(listSpans(encoded, 0)).toHaveLength(input.length);
    }
  });

  it('throws RlpError, naming what was read, for truncated and non-canonical input', () => {
    const bad = [[], [0x81], [0xb8], [0xb8, 0x38], [0xb8, 0x00], [0xc2, 0x80], [0xf8, 0x00], [0xf9, 0x01], [0xc3, 0xb8, 0x38, 0x00]];
    for (const b of bad) {
      const bytes = Uint8Array.from(b);
      expect(() => rlpViews(bytes, 0, 'a test item'), JSON.stringify(b)).toThrow(RlpError);
      expect(() => rlpViews(bytes, 0, 'a test item')).toThrow(/a test item/);
    }
    expect(() => new RlpCursor().parse(Uint8Array.from([0xb9, 0x01]), 0)).toThrow(RlpError);
    expect(() => listSpans(Uint8Array.from([0x80]), 0)).toThrow(RlpError);
  });
});
