/** Loading and validating seed files: each kind has its schema; errors name the bad field's path. */
import { readJsonFile } from '../jsonFile.js';
import { basename, dirname, resolve } from 'node:path';
import { z } from 'zod';
import { EthSeed } from './eth.js';
import { RollupSeed } from './rollup.js';

export const Seed = z.discriminatedUnion('kind', [EthSeed, RollupSeed]);
export type Seed = z.infer<typeof Seed>;

/** A validated seed and the folder its relative paths resolve against. */
export interface LoadedSeed {
  readonly seed: Seed;
  readonly baseDir: string;
  readonly source: string;
}

export class SeedError extends Error {
  override name = 'SeedError';
}

/** Formats zod issues as `path.to[3].field: message` lines. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.reduce<string>(
        (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc === '' ? String(key) : `${acc}.${String(key)}`),
        '',
      );
      return `${path || '(root)'}: ${issue.message}`;
    })
    .join('\n');
}

/** Validates a seed object; `source` names it in error messages. */
export function parseSeed(value: unknown, source: string, baseDir = process.cwd()): LoadedSeed {
  const result = Seed.safeParse(value);
  if (!result.success) throw new SeedError(`invalid seed ${source}:\n${formatIssues(result.error)}`);
  return { seed: result.data, baseDir, source };
}

/** Reads and validates a seed file. */
export function loadSeedFile(path: string): LoadedSeed {
  const full = resolve(path);
  const value = readJsonFile(full, 'seed file', (message) => new SeedError(message), path);
  if (looksLikeGethGenesis(value)) return gethGenesisSeed(value, path, full);
  return parseSeed(value, path, dirname(full));
}

/** Whether a parsed JSON value has the shape of a geth genesis.json (a `config` and an `alloc` object, no `kind`). */
export function looksLikeGethGenesis(value: unknown): value is { config: Record<string, unknown>; alloc: object } {
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  return isObject(value) && isObject(value.config) && isObject(value.alloc) && !('kind' in value);
}

/** A geth genesis.json given as a chain: an eth network named after the file, with the genesis's chain id. */
function gethGenesisSeed(value: { config: Record<string, unknown> }, path: string, full: string): LoadedSeed {
  const chainId = value.config.chainId;
  if (typeof chainId !== 'number' || !Number.isInteger(chainId) || chainId <= 0) {
    throw new SeedError(`invalid geth genesis ${path}:\nconfig.chainId: expected a positive integer`);
  }
  const name = basename(full).replace(/\.json$/i, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^[^a-z0-9]+|-+$/g, '') || 'geth';
  return parseSeed({ name, kind: 'eth', chainId, gethGenesis: basename(full) }, path, dirname(full));
}
