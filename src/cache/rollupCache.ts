/**
 * Built rollup chains in the same on-disk cache as the eth chains (see chainCache.ts): a seed's
 * chain is built once (Pedersen and Poseidon hashes, signature checks, state commitments), saved,
 * and the next start with the same inputs restores it without hashing anything. The key hashes the
 * validated seed, devgate's version, the rollup engine's and builder's sources and the version of
 * @scure/starknet. A corrupt, foreign or stale file is ignored and replaced, never trusted.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import { buildRollupChain, rollupConfig } from '../rollup/build.js';
import { RollupChain } from '../rollup/engine/chain.js';
import { decodeRollupSnapshot, encodeRollupSnapshot, ROLLUP_SNAPSHOT_FORMAT } from '../rollup/snapshot.js';
import type { RollupSeed } from '../seed/rollup.js';
import { VERSION } from '../version.js';
import { packageVersion, sourceDigest } from '../buildFacts.js';
import { readImage, imagePath, storeImage, type CacheOutcome } from './chainCache.js';

/** Builds a rollup seed's chain, or restores it from the cache in `dir` (and stores a fresh build there). */
export function cachedRollupChain(seed: RollupSeed, clock: Clock, dir: string | undefined): { chain: RollupChain; cache: CacheOutcome } {
  if (dir === undefined) return { chain: buildRollupChain(seed, clock), cache: 'off' };
  const key = rollupChainKey(seed);
  const file = imagePath(dir, seed.name, key);
  const bytes = readImage(file);
  if (bytes !== undefined) {
    try {
      return { chain: RollupChain.restore(rollupConfig(seed), clock, decodeRollupSnapshot(bytes, key)), cache: 'hit' };
    } catch {
      // Corrupt or foreign: build again and replace it.
    }
  }
  const chain = buildRollupChain(seed, clock);
  return { chain, cache: storeImage(file, encodeRollupSnapshot(chain.parts(), key)) ? 'stored' : 'off' };
}

/** The 32-byte key of a rollup seed's chain: a hash of everything its build depends on. */
export function rollupChainKey(seed: RollupSeed): Uint8Array {
  const h = createHash('sha256');
  const part = (label: string, value: string) => {
    h.update(`${label}\0${value.length}\0`);
    h.update(value);
  };
  part('format', `rollup ${ROLLUP_SNAPSHOT_FORMAT}`);
  part('devgate', VERSION);
  part('package @scure/starknet', packageVersion('@scure/starknet'));
  part('sources', sourceDigest('rollup'));
  part('seed', JSON.stringify(seed));
  return new Uint8Array(h.digest());
}
