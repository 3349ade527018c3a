/** The byte writer of the struct logger's text (src/eth/format/jsonBytes.ts) writes what String/toString/JSON write. */
import { describe, expect, it } from 'vitest';
import { JsonBytes } from '../../../src/eth/format/jsonBytes.js';

describe('JsonBytes', () => {
  it('writes numbers, quantities and hex as String, toString(16) and Buffer hex do', () => {
    const numbers = [0, 1, 9, 10, 255, 65_535, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER, 2 ** 64, -1, 1.5];
    const quantities = [0n, 1n, 15n, 16n, 0x7fffffffn, 0x80000000n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 160n - 1n, 2n ** 256n - 1n];
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff);
    const out = JsonBytes.take();
    let expected = '';
    for (const n of numbers) {
      out.number(n);
      out.byte(0x2c);
      expected += `${String(n)},`;
    }
    for (const q of quantities) {
      out.quantityHex(q);
      out.ascii(';');
      expected += `0x${q.toString(16)};`;
    }
    out.hex(bytes, 3, 300);
    expected += Buffer.from(bytes.subarray(3)).toString('hex');
    expect(out.done()).toBe(expected);
  });

  it('grows past its first buffer, copies its own bytes, and reads non-ASCII text back as UTF-8', () => {
    const out = JsonBytes.take();
    const word = `"0x${'ab'.repeat(32)}"`;
    let expected = '';
    for (let i = 0; i < 5_000; i++) {
      out.ascii(word);
      expected += word;
    }
    out.copy(0, word.length);
    expected += word;
    out.text(JSON.stringify('revert: ünïcødé ✓'));
    expected += JSON.stringify('revert: ünïcødé ✓');
    expect(out.wideBytes).toBe(Buffer.byteLength(expected) - expected.length);
    expect(out.done()).toBe(expected);
    // Taken again, it starts empty and reads ASCII back.
    const again = JsonBytes.take();
    again.ascii('[]');
    expect(again.done()).toBe('[]');
  });
});
