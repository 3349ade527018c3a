/** Loading and validating seed files: each kind has its schema; errors name the bad field's path. */
import { createHash } from 'node:crypto';
import { readJsonBytes } from '../jsonFile.js';
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
  /** A BLAKE2b digest of the seed file's bytes (a seed read from its own file): the cache key hashes it instead of the parsed seed. */
  readonly fileDigest?: Uint8Array;
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
  const { checked, restore } = setAsideRawTransactions(value);
  const result = Seed.safeParse(checked);
  if (!result.success) throw new SeedError(`invalid seed ${source}:\n${formatIssues(result.error)}`);
  restore(result.data);
  return { seed: result.data, baseDir, source };
}

const RAW_HEX = /^0x[0-9a-fA-F]*$/;

/** Whether `tx` is a plain `{ raw }` transaction that TxSpec accepts as is (its output: a copy of `{ raw }`). */
function isValidRawOnly(tx: unknown): tx is { raw: string } {
  if (!isPlainRecord(tx)) return false;
  const keys = Object.keys(tx);
  if (keys.length !== 1 || keys[0] !== 'raw') return false;
  const raw = (tx as { raw: unknown }).raw;
  return typeof raw === 'string' && raw.length % 2 === 0 && RAW_HEX.test(raw);
}

/**
 * Zod checks ~10,000 `{ raw }` transactions of a large seed one by one against the 16-field TxSpec
 * (~50-140 ms of a start). A block's transaction list made only of valid `{ raw }` ones can raise no
 * issue (and no seed check reads it), so it is validated here and zod sees an empty list, then it is
 * put back into the parsed seed: the same result, and the same issues at the same paths. Not for
 * `pending`, whose length a seed check reads (and which is short).
 */
function setAsideRawTransactions(value: unknown): { checked: unknown; restore: (seed: Seed) => void } {
  const none = { checked: value, restore: () => {} };
  if (!isPlainRecord(value) || value.kind !== 'eth') return none;
  const lists = new Map<number, { raw: string }[]>();
  let blocks = value.blocks;
  if (Array.isArray(blocks)) {
    blocks = blocks.map((block: unknown, i) => {
      if (!isPlainRecord(block) || !Array.isArray(block.transactions) || block.transactions.length === 0) return block;
      if (!block.transactions.every(isValidRawOnly)) return block;
      lists.set(i, block.transactions);
      return { ...block, transactions: [] };
    });
  }
  if (lists.size === 0) return none;
  const restore = (seed: Seed) => {
    if (seed.kind !== 'eth') return;
    for (const [i, txs] of lists) seed.blocks[i]!.transactions = txs.map((tx) => ({ raw: tx.raw }));
  };
  return { checked: { ...value, blocks }, restore };
}

/** A plain object (JSON's kind), which spreads into an equal copy. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Reads and validates a seed file. With `isCached`, an eth seed whose built chain it reports cached
 * (under a key of these very bytes, see chainCache.ts) was validated whole when that chain was
 * built, by the same devgate: only its fields other than `blocks` are validated now (zod over the
 * ~10,000 transactions of a large seed is ~25-60 ms of a start), and its blocks, which a restored
 * chain never reads, are validated when first read (should the chain have to be built after all).
 */
export function loadSeedFile(path: string, isCached?: (candidate: LoadedSeed) => boolean): LoadedSeed {
  const full = resolve(path);
  const { bytes, value } = readJsonBytes(full, 'seed file', (message) => new SeedError(message), path);
  if (looksLikeGethGenesis(value)) return gethGenesisSeed(value, path, full);
  // BLAKE2b: ~2x SHA-256's speed without SHA extensions (3.4 MB: ~8 vs ~16 ms).
  const fileDigest = new Uint8Array(createHash('blake2b512').update(bytes).digest());
  const baseDir = dirname(full);
  if (isCached !== undefined && isPlainRecord(value) && value.kind === 'eth' && Array.isArray(value.blocks)) {
    const candidate = blocksOnDemand(value, path, baseDir, fileDigest);
    if (candidate !== undefined && isCached(candidate)) return candidate;
  }
  return { ...parseSeed(value, path, baseDir), fileDigest };
}

/** The seed validated but for its blocks, which are validated (the whole seed again) when first read; undefined if the rest is invalid. */
function blocksOnDemand(value: Record<string, unknown>, source: string, baseDir: string, fileDigest: Uint8Array): LoadedSeed | undefined {
  const rest = Seed.safeParse({ ...value, blocks: [] });
  if (!rest.success || rest.data.kind !== 'eth') return undefined;
  let blocks: typeof rest.data.blocks | undefined;
  Object.defineProperty(rest.data, 'blocks', {
    enumerable: true,
    get: () => (blocks ??= (parseSeed(value, source, baseDir).seed as typeof rest.data).blocks),
  });
  return { seed: rest.data, baseDir, source, fileDigest };
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
  const name =
    basename(full)
      .replace(/\.json$/i, '')
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^[^a-z0-9]+|-+$/g, '') || 'geth';
  // As anvil --init: the dev accounts are funded beside the alloc (a seed naming gethGenesis keeps geth's genesis exactly).
  return parseSeed({ name, kind: 'eth', chainId, gethGenesis: basename(full), devAccounts: true }, path, dirname(full));
}
