/**
 * The deletion sibling's key search on a worker thread (src/eth/engine/fork/keySearch.ts): the same key the
 * main-thread count-up finds, the main thread free meanwhile, and cancellable.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { searchOnWorker } from '../../src/eth/engine/fork/keySearch.js';
import { toNibbles } from '../../src/eth/engine/fork/trieWalk.js';
import { turnsDuring } from '../support/turns.js';

/** The first key counting up from 1 whose hash starts with `prefix` (the main thread's own search). */
function countUp(prefix: number[], length: number): Uint8Array {
  const key = new Uint8Array(length);
  for (let n = 1; ; n++) {
    for (let i = 0, v = n; i < 6; i++, v = Math.floor(v / 256)) key[length - 1 - i] = v & 255;
    if (toNibbles(keccak_256(key)).slice(0, prefix.length).join() === prefix.join()) return key;
  }
}

describe('key search on a worker thread', () => {
  it('finds the same key as counting up on the main thread, for an address and a slot', async () => {
    for (const [prefix, length] of [
      [[0xa, 0x3], 20],
      [[0x0, 0xf, 0x7], 32],
    ] as [number[], number][]) {
      const found = await searchOnWorker({ prefix, length, tries: 16 * 16 ** prefix.length })!;
      expect(found.key).toEqual(countUp(prefix, length));
      expect(toNibbles(keccak_256(found.key!)).slice(0, prefix.length)).toEqual(prefix);
    }
  });

  it('leaves the main thread free while it hashes (a 4-nibble search, ~65,000 hashes)', async () => {
    const { value, turns } = await turnsDuring(() => searchOnWorker({ prefix: [1, 2, 3, 4], length: 32, tries: 16 * 16 ** 4 })!);
    expect(value.key).toBeDefined();
    // The main-thread search yielded once per 2,048 hashes (~30 turns for this one); the worker leaves every turn free.
    expect(turns).toBeGreaterThan(value.hashes / 2048 + 100);
  });

  it('is cancelled by its signal, and by its time limit', async () => {
    const controller = new AbortController();
    const search = searchOnWorker({ prefix: [1, 2, 3, 4, 5, 6, 7, 8], length: 32, tries: 16 * 16 ** 8 }, controller.signal)!;
    controller.abort();
    await expect(search).rejects.toThrow(/cancelled/);
    await expect(searchOnWorker({ prefix: [1, 2, 3, 4, 5, 6, 7, 8], length: 32, tries: 16 * 16 ** 8 }, undefined, 200)!).rejects.toThrow(/0.2 s limit/);
  });
});
