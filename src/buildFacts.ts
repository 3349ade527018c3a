/**
 * Facts about devgate's build that its cache keys cover (src/cache/chainCache.ts, rollupCache.ts): digests of
 * every source file a cached chain's build can run (all that its cache module imports, followed through
 * every relative import, subfolders included) and the versions of the packages its engines run on, so a changed build of
 * devgate never reuses a chain. The bundle (scripts/build.ts) has neither source files nor (in
 * its code) packages to read, so its build records these facts from src/ and node_modules and puts
 * them in `DEVGATE_BUILD_FACTS`; run from src/ (tsx, vitest) they are read at first use. The EVM fast path's
 * version gate (src/eth/engine/evm/gate.ts) reads its package versions here too, so this file is not the cache's.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set by the bundle build: `source <folder>` -> digest, `package <name>` -> version. */
declare const DEVGATE_BUILD_FACTS: Readonly<Record<string, string>> | undefined;
const recorded: Readonly<Record<string, string>> | undefined = typeof DEVGATE_BUILD_FACTS === 'undefined' ? undefined : DEVGATE_BUILD_FACTS;

/**
 * The sources the cache keys cover, by the module (relative to src/) whose imports reach every file a
 * cached chain's build runs: `eth` from chainCache.ts, `rollup` from rollupCache.ts.
 */
export const KEYED_SOURCES = { eth: 'cache/chainCache.ts', rollup: 'cache/rollupCache.ts' } as const;
export const KEYED_PACKAGES = [
  ...['block', 'common', 'evm', 'mpt', 'rlp', 'statemanager', 'tx', 'util', 'vm'].map((n) => `@ethereumjs/${n}`),
  '@scure/starknet',
];

export type KeyedSource = keyof typeof KEYED_SOURCES;

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new URL\(\s*)'(\.{1,2}\/[^']+)'/g;

/** The .ts files `entry` (a path) reaches through relative imports (static, dynamic, `new URL`), itself included. */
export function importGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolvePath(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
      if (target.endsWith('.ts')) visit(target);
    }
  };
  visit(resolvePath(entry));
  return [...seen].sort();
}

/** A digest of the sources `entry` reaches, by path (relative to `root`) and content. */
export function graphDigest(root: string, entry: string): string {
  const h = createHash('sha256');
  for (const file of importGraph(join(root, entry))) {
    const content = readFileSync(file);
    h.update(`${relative(root, file)}\0${content.length}\0`);
    h.update(content);
  }
  return h.digest('hex');
}

const known = new Map<string, string>();
/** Looks a fact up in the bundle's record, else works it out once. */
function fact(name: string, workOut: () => string): string {
  const value = recorded?.[name] ?? known.get(name) ?? workOut();
  known.set(name, value);
  return value;
}

/** The digest of the sources a cached chain of that kind is built by (see KEYED_SOURCES). */
export function sourceDigest(kind: KeyedSource): string {
  return fact(`source ${kind}`, () => graphDigest(fileURLToPath(new URL('./', import.meta.url)), KEYED_SOURCES[kind]));
}

/** The version of a package devgate's engines run on (`unknown` if it cannot be read). */
export function packageVersion(name: string): string {
  return fact(`package ${name}`, () => installedVersion(name));
}

/** The installed version of a package, or `unknown`. */
export function installedVersion(name: string): string {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve(name));
    while (!existsSync(join(dir, 'package.json')) || (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== name) {
      const up = dirname(dir);
      if (up === dir) return 'unknown';
      dir = up;
    }
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
