/**
 * A seed read from its file is keyed by the file's bytes, and a seed whose built chain is cached
 * skips validating its blocks until they are read: the same seed, the same key and the same errors
 * as a seed validated whole.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedEthChain, chainKey, hasCachedChain } from '../../src/cache/chainCache.js';
import { loadSeedFile, SeedError } from '../../src/seed/load.js';

const work = mkdtempSync(join(tmpdir(), 'devgate-seedkey-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const small = JSON.parse(readFileSync('test/fixtures/eth/small.json', 'utf8')) as { blocks: { transactions: Record<string, unknown>[] }[] };
let n = 0;
const write = (value: unknown, text = JSON.stringify(value, null, 2)): string => {
  const file = join(work, `seed-${n++}.json`);
  writeFileSync(file, text);
  return file;
};

describe('a seed file', () => {
  it('skipping its blocks when cached gives the same seed and key as validating it whole', () => {
    const file = write(small);
    const whole = loadSeedFile(file);
    let asked = 0;
    const cached = loadSeedFile(file, () => (asked++, true));
    expect(asked).toBe(1);
    expect(chainKey(cached)).toEqual(chainKey(whole));
    expect(cached.seed).toEqual(whole.seed);
    expect(JSON.stringify(cached.seed)).toBe(JSON.stringify(whole.seed));
  });

  it('is keyed by its bytes: the same seed laid out differently is another key', () => {
    const a = loadSeedFile(write(small));
    const b = loadSeedFile(write(small, JSON.stringify(small)));
    expect(a.seed).toEqual(b.seed);
    expect(chainKey(a)).not.toEqual(chainKey(b));
  });

  it('with bad blocks: an error when not cached, and when its blocks are read if it claims to be', () => {
    const bad = structuredClone(small);
    bad.blocks[0]!.transactions.push({ to: 'not an address' });
    const file = write(bad);
    expect(() => loadSeedFile(file)).toThrow(SeedError);
    expect(() => loadSeedFile(file, () => false)).toThrow(SeedError);
    const claimed = loadSeedFile(file, () => true);
    expect(() => (claimed.seed as { blocks: unknown }).blocks).toThrow(SeedError);
  });

  it('with bad fields besides its blocks: the same error, cached or not', () => {
    const file = write({ ...small, chainId: -1 });
    expect(() => loadSeedFile(file)).toThrow(SeedError);
    let message = '';
    try {
      loadSeedFile(file, () => true);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('chainId');
  });

  it('restores from the cache once built, and the restore reads no block of the seed', async () => {
    const file = write(small);
    const dir = join(work, 'cache');
    expect(hasCachedChain(loadSeedFile(file), dir)).toBe(false);
    expect((await cachedEthChain(loadSeedFile(file), dir)).cache).toBe('stored');
    const cached = loadSeedFile(file, (c) => hasCachedChain(c, dir));
    const get = Object.getOwnPropertyDescriptor(cached.seed, 'blocks')?.get;
    expect(get).toBeDefined();
    let reads = 0;
    Object.defineProperty(cached.seed, 'blocks', { enumerable: true, get: () => (reads++, get!()) });
    const out = await cachedEthChain(cached, dir);
    expect(out.cache).toBe('hit');
    expect(reads).toBe(0);
    expect(out.chain.head().number).toBe(BigInt(small.blocks.length));
  });
});
