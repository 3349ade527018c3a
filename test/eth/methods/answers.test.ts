import { setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { bytesHex } from '../../../src/hex.js';
import { storageKey, wordHex } from '../../../src/eth/methods/eth_getStorageAt.js';

describe('eth_getStorageAt word hex', () => {
  it('is the hex of setLengthLeft(value, 32) for every length 0..32, and throws as it does beyond', () => {
    let seed = 1;
    const byte = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
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

describe('eth_getStorageAt storage key', () => {
  const word = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
  it("reads keys as geth's decodeHash: optional 0x, odd lengths, up to 32 bytes, 0x alone is slot 0", () => {
    expect(storageKey('0x1')).toEqual(word(1n));
    expect(storageKey('0X0100')).toEqual(word(256n));
    expect(storageKey('abc')).toEqual(word(0xabcn));
    expect(storageKey('0x')).toEqual(new Uint8Array(32));
    expect(storageKey('0x' + 'ff'.repeat(32))).toEqual(new Uint8Array(32).fill(0xff));
  });

  it("fails with geth's messages, quoting the key (length is checked before the digits, as geth does)", () => {
    expect(() => storageKey('0xasdf')).toThrow(/^invalid hex in storage key: "0xasdf"$/);
    expect(() => storageKey('0x' + '0'.repeat(65))).toThrow(/^storage key too long \(want at most 32 bytes\): "0x0{65}"$/);
    expect(() => storageKey('0x' + 'z'.repeat(65))).toThrow(/^storage key too long/);
    expect(() => storageKey('0x' + 'z'.repeat(5000))).toThrow(/^storage key too long \(want at most 32 bytes\): "0xz{998}\.\.\."$/);
  });
});

describe('raw block integer fields', () => {
  it('read as bytesToBigInt does, for lengths 0..40, and throw where it does', async () => {
    const { bytesToBigInt } = await import('@ethereumjs/util');
    const { big } = await import('../../../src/eth/engine/chain/rawBlock.js');
    let seed = 3;
    const byte = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
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
