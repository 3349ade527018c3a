/**
 * Facts about devgate's build that its cache keys cover (chainCache.ts, rollupCache.ts): digests of
 * its own source folders and the versions of the packages its engines run on, so a changed build of
 * devgate never reuses a chain. The bundle (scripts/build.ts) has neither source files nor (in
 * its code) packages to read, so its build records these facts from src/ and node_modules and puts
 * them in `DEVGATE_BUILD_FACTS`; run from src/ (tsx, vitest) they are read at first use.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set by the bundle build: `source <folder>` -> digest, `package <name>` -> version. */
declare const DEVGATE_BUILD_FACTS: Readonly<Record<string, string>> | undefined;
const recorded: Readonly<Record<string, string>> | undefined = typeof DEVGATE_BUILD_FACTS === 'undefined' ? undefined : DEVGATE_BUILD_FACTS;

/** The source folders (relative to src/) and packages the cache keys cover. */
export const KEYED_SOURCES = ['eth/engine', 'rollup/engine', 'rollup', 'seed'] as const;
export const KEYED_PACKAGES = [...['block', 'common', 'evm', 'mpt', 'rlp', 'statemanager', 'tx', 'util', 'vm'].map((n) => `@ethereumjs/${n}`), '@scure/starknet'];

export type KeyedSource = (typeof KEYED_SOURCES)[number];

/** A digest of a folder's .ts/.js files, by name and content. */
export function folderDigest(dir: string): string {
  const h = createHash('sha256');
  for (const f of readdirSync(dir).filter((f) => /\.(ts|js)$/.test(f)).sort()) {
    const content = readFileSync(join(dir, f));
    h.update(`${f}\0${content.length}\0`);
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

/** The digest of one of devgate's source folders (`eth/engine`: relative to src/). */
export function sourceDigest(folder: KeyedSource): string {
  return fact(`source ${folder}`, () => folderDigest(fileURLToPath(new URL(`../${folder}/`, import.meta.url))));
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
