/**
 * A cache of built eth chains on disk: a seed's chain is built once, saved as a chain image, and the
 * next start with the same inputs restores it without executing anything. The key hashes
 * everything the build depends on: the validated seed, the content of every file it can read
 * (contract artifacts of the seed's and devgate's contracts/ folders, gethGenesis, rlpChain),
 * devgate's version, the engine's own source files and the @ethereumjs package versions. A file
 * that is corrupt, foreign or from another build is ignored and replaced, never trusted.
 */
import { applyCodeSizeLimit } from '../eth/engine/build/codeSize.js';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { seedArtifacts } from '../eth/engine/build/abi.js';
import { chainFromSeed } from '../eth/engine/build/chainFromSeed.js';
import type { EthChain, EthChainOptions } from '../eth/engine/chain/chain.js';
import { seedCommon } from '../eth/engine/exec/common.js';
import { encodeChainImage, restoreChainImage, CHAIN_IMAGE_FORMAT } from '../eth/engine/image/chainImage.js';
import type { Common } from '@ethereumjs/common';
import type { EthSeed } from '../seed/eth.js';
import type { LoadedSeed } from '../seed/load.js';
import { VERSION } from '../version.js';
import { KEYED_PACKAGES, packageVersion, sourceDigest } from '../buildFacts.js';
import { plainHex } from '../hex.js';

/** `false`: always build; `{ dir }`: keep built chains in `dir`; undefined: the default directory. */
export type CacheOption = false | { readonly dir: string } | undefined;

/** What a start reports of the cache, per chain. */
export type CacheOutcome = 'hit' | 'stored' | 'off';

/**
 * The default cache directory: `node_modules/.cache/devgate` when the working directory has a
 * node_modules, else the OS cache directory's `devgate`; `DEVGATE_CACHE_DIR` overrides both, and
 * `DEVGATE_CACHE_DIR=off` turns the cache off. A test suite's `start()` uses it too (a warm start restores
 * the shipped chains instead of building them); devgate's own `built` tests set `off`, so their results
 * never depend on an earlier run.
 */
export function defaultCacheDir(): string | undefined {
  const env = process.env.DEVGATE_CACHE_DIR;
  if (env === 'off') return undefined;
  if (env !== undefined && env !== '') return resolve(env);
  if (existsSync(join(process.cwd(), 'node_modules'))) return join(process.cwd(), 'node_modules', '.cache', 'devgate');
  const home = homedir();
  const os = platform();
  const base =
    os === 'win32'
      ? (process.env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'))
      : os === 'darwin'
        ? join(home, 'Library', 'Caches')
        : (process.env.XDG_CACHE_HOME ?? join(home, '.cache'));
  return join(base, 'devgate');
}

/** The directory a cache option names, or undefined when caching is off. */
export function cacheDir(option: CacheOption): string | undefined {
  if (option === false) return undefined;
  return option === undefined ? defaultCacheDir() : resolve(option.dir);
}

/** Builds a seed's eth chain, or restores it from the cache in `dir` (and stores a fresh build there). */
export async function cachedEthChain(
  loaded: LoadedSeed,
  dir: string | undefined,
  opts: EthChainOptions = {},
): Promise<{ chain: EthChain; cache: CacheOutcome }> {
  const seed = loaded.seed as EthSeed;
  if (dir === undefined) return { chain: await chainFromSeed(loaded, opts), cache: 'off' };
  const key = chainKey(loaded);
  const file = imagePath(dir, seed.name, key);
  const bytes = readImage(file);
  if (bytes !== undefined) {
    try {
      return { chain: await restoreChainImage(bytes, { key, common: await chainCommon(loaded), options: opts }), cache: 'hit' };
    } catch {
      // Corrupt or foreign: build again and replace it.
    }
  }
  const chain = await chainFromSeed(loaded, opts);
  const image = encodeChainImage(chain.parts(), key);
  const stored = storeImage(file, image);
  // Serve the chain restored from its chain image, as a later start will: the same lazily decoded
  // blocks, and the build's garbage is freed (1,000 x 10 seed: RSS ~480 -> ~380 MB).
  try {
    return { chain: await restoreChainImage(image, { key, common: await chainCommon(loaded), options: opts }), cache: stored ? 'stored' : 'off' };
  } catch {
    return { chain, cache: stored ? 'stored' : 'off' };
  }
}

/** The file of a network's chain image under `key`: one file per network name, `<name>-<key hex>.chain`. */
export function imagePath(dir: string, network: string, key: Uint8Array): string {
  return join(dir, `${network.replace(/[^A-Za-z0-9_-]/g, '_')}-${plainHex(key)}.chain`);
}

/** The bytes of a chain image file, or undefined if there is none (or it cannot be read). */
export function readImage(file: string): Uint8Array | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Stores a chain image and removes the network's older ones (older builds of its seed); false if it could not be written. */
export function storeImage(file: string, bytes: Uint8Array): boolean {
  if (!store(file, bytes)) return false;
  const name = basename(file);
  prune(dirname(file), name.slice(0, name.length - '0'.repeat(64).length - '.chain'.length), file);
  return true;
}

/** Removes the other chain images of a network (older builds of its seed); failures are ignored. */
function prune(dir: string, prefix: string, keep: string): void {
  try {
    for (const f of readdirSync(dir)) {
      if (f.startsWith(prefix) && /^[0-9a-f]{64}\.chain$/.test(f.slice(prefix.length)) && join(dir, f) !== keep) rmSync(join(dir, f), { force: true });
    }
  } catch {
    // Another process may be pruning too.
  }
}

/** The Common of a seed's chain, without building it (dev accounts come from the chain image: deriving them costs ~60 ms). */
export async function chainCommon(loaded: LoadedSeed): Promise<Common> {
  const seed = loaded.seed as EthSeed;
  if (seed.gethGenesis === undefined) return applyCodeSizeLimit(seedCommon(seed.chainId!, seed.name, seed.hardfork), seed.codeSizeLimit);
  // An imported chain: the genesis's schedule, with the merge block its chain file's difficulties give.
  const { parseGethGenesis, readChainFile } = await import('../eth/engine/build/import.js');
  const { gethCommon, resolveMergeBlock } = await import('../eth/engine/build/geth.js');
  const genesis = parseGethGenesis(JSON.parse(readFileSync(resolve(loaded.baseDir, seed.gethGenesis), 'utf8')), seed.gethGenesis);
  const file = seed.rlpChain === undefined ? undefined : readChainFile(readFileSync(resolve(loaded.baseDir, seed.rlpChain)), seed.rlpChain);
  return gethCommon(genesis, { mergeBlock: resolveMergeBlock(genesis, file?.difficulties ?? []) });
}

/** Writes a file whole or not at all (temp file, then rename); a failure only means no cache. */
function store(file: string, bytes: Uint8Array): boolean {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(tmp, bytes);
    renameSync(tmp, file);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** The packages an eth chain's build runs on. */
const ETHEREUMJS_PACKAGES = KEYED_PACKAGES.filter((name) => name.startsWith('@ethereumjs/'));

/** Whether the cache in `dir` holds a chain image of this seed's chain (should it not restore, the chain is built). */
export function hasCachedChain(loaded: LoadedSeed, dir: string): boolean {
  return existsSync(imagePath(dir, loaded.seed.name, chainKey(loaded)));
}

const keys = new WeakMap<LoadedSeed, Uint8Array>();
/**
 * The 32-byte key of a seed's chain: a hash of everything its build depends on. A seed read from
 * its own file is keyed by the file's bytes and the seed schema's sources (what the validated seed
 * is made from), else by the validated seed.
 */
export function chainKey(loaded: LoadedSeed): Uint8Array {
  let key = keys.get(loaded);
  if (key === undefined) keys.set(loaded, (key = computeChainKey(loaded)));
  return key;
}

function computeChainKey(loaded: LoadedSeed): Uint8Array {
  const seed = loaded.seed as EthSeed;
  const h = createHash('sha256');
  const part = (label: string, value: string | Uint8Array) => {
    h.update(`${label}\0${value.length}\0`);
    h.update(value);
  };
  part('format', String(CHAIN_IMAGE_FORMAT));
  part('devgate', VERSION);
  for (const name of ETHEREUMJS_PACKAGES) part(`package ${name}`, packageVersion(name));
  part('sources', sourceDigest('eth'));
  if (loaded.fileDigest === undefined) part('seed', JSON.stringify(seed));
  else part('seed file', loaded.fileDigest);
  const artifacts = seedArtifacts(loaded);
  for (const dir of artifacts.dirs) {
    for (const [name, content] of jsonFiles(dir)) part(`artifact ${dir} ${name}`, content);
  }
  // Artifacts a seed names by path (a user's Hardhat or Foundry build output), gethGenesis and rlpChain.
  const files = [seed.gethGenesis, seed.rlpChain].flatMap((path) => (path === undefined ? [] : [resolve(loaded.baseDir, path)]));
  for (const full of [...files, ...artifacts.files]) part(`file ${full}`, existsSync(full) ? readFileSync(full) : 'missing');
  return new Uint8Array(h.digest());
}

/** Every .json file of a folder, by name, sorted (none if the folder does not exist). */
function jsonFiles(dir: string): [string, Buffer][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, readFileSync(join(dir, f))]);
}
