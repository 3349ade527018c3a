import { setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { bytesHex } from '../../../src/hex.js';
import { wordHex } from '../../../src/eth/methods/eth_getStorageAt.js';

describe('eth_getStorageAt word hex', () => {
  it('is the hex of setLengthLeft(value, 32) for every length 0..32, and throws as it does beyond', () => {
    let seed = 1;
    const byte = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
    for (let n = 0; n <= 40; n++) {
      for (let k = 0; k < 20; k++) {
        const backing = Uint8Array.from({ length: n + 6 }, byte);
        const value = backing.subarray(3, 3 + n); // a view with an offset, as stored values are
        if (n <= 32) expect(wordHex(value)).toBe(bytesHex(setLengthLeft(value, 32)));
        else expect(() => wordHex(value)).toThrow();
      }
    }
  });
});

describe('raw block integer fields', () => {
  it('read as bytesToBigInt does, for lengths 0..40, and throw where it does', async () => {
    const { bytesToBigInt } = await import('@ethereumjs/util');
    const { big } = await import('../../../src/eth/engine/chain/rawBlock.js');
    let seed = 3;
    const byte = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
    for (let n = 0; n <= 40; n++) {
      for (let k = 0; k < 30; k++) {
        const backing = Uint8Array.from({ length: n + 4 }, byte);
        const value = backing.subarray(2, 2 + n);
        if (k === 0) value.fill(0xff);
        if (k === 1) value.fill(0);
        expect(big(value)).toBe(bytesToBigInt(value));
      }
    }
    expect(() => big(undefined)).toThrow();
    expect(() => big([new Uint8Array(1)])).toThrow();
  });
});
