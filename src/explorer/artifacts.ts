/**
 * The artifacts a user hands devgate for the explorer to decode with (`--artifacts PATH`, `start({ artifacts })`),
 * beside the shipped contracts' and the seeds' (abis.ts): compiled artifact files (`<Name>.json` with an `abi` array,
 * as solc, Hardhat and Foundry write them) or folders of them (a Hardhat `artifacts/`, a Foundry `out/`), searched
 * through. Read once, at start, within a budget of bytes read and folder entries looked at; anything wrong stops the
 * start with an error naming the file: a path that does not exist, a file that is not JSON, a file named directly that
 * is not an artifact, the budget passed. In a folder, a JSON file without an `abi` (a build's other output) is skipped.
 */
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { KnownAbi } from './abis.js';

/** Bytes of artifact files read in all (a Foundry `out/` of a large project holds tens of MB of ASTs). */
export const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;
/** Folder entries looked at in all (files and folders): the walk's work, however small the files. */
export const MAX_ARTIFACT_ENTRIES = 10_000;

/**
 * Folders of a build that hold no artifacts and can be large: Hardhat's `build-info` (whole compiler inputs and
 * outputs), caches, dependencies. Hardhat's `*.dbg.json` files (a pointer to build-info) are skipped too.
 */
const SKIPPED = new Set(['build-info', 'cache', 'node_modules']);

export class ArtifactsError extends Error {}

function fail(message: string): never {
  throw new ArtifactsError(`cannot read the artifacts given (--artifacts, start({ artifacts })): ${message}`);
}

/** The ABIs (functions, events, errors) of the artifacts at `paths`, in the order given, each folder's sorted by path. */
export function readArtifacts(paths: readonly string[], budget = { bytes: MAX_ARTIFACT_BYTES, entries: MAX_ARTIFACT_ENTRIES }): KnownAbi[] {
  const out: KnownAbi[] = [];
  let bytes = 0;
  let entries = 0;
  const read = (file: string, named: boolean): void => {
    let size: number;
    try {
      size = statSync(file).size;
    } catch (err) {
      fail(`${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    bytes += size;
    if (bytes > budget.bytes) fail(`they come to more than ${budget.bytes} bytes (at ${file}); name the artifact files, or a folder of fewer`);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      fail(`${file} is not JSON (${(err as Error).message})`);
    }
    const abi = (json as { abi?: unknown } | null)?.abi;
    if (!Array.isArray(abi)) {
      if (named) fail(`${file} is not a compiled artifact: it has no "abi" array`);
      return;
    }
    const bad = abi.findIndex((item) => typeof item !== 'object' || item === null || typeof (item as { type?: unknown }).type !== 'string');
    if (bad >= 0) fail(`${file}: abi[${bad}] is not an ABI item (an object with a "type")`);
    const kept = abi.filter((item: { type: string }) => item.type === 'function' || item.type === 'event' || item.type === 'error');
    out.push({ name: basename(file, '.json'), abi: kept });
  };
  const walk = (dir: string): void => {
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (err) {
      fail(`${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    for (const entry of list) {
      entries += 1;
      if (entries > budget.entries) fail(`the folders given hold more than ${budget.entries} entries (at ${dir}); name a folder of fewer`);
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(path);
      } else if (entry.isFile() && entry.name.endsWith('.json') && !entry.name.endsWith('.dbg.json')) {
        read(path, false);
      }
    }
  };
  for (const given of paths) {
    const path = resolve(given);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      fail(`${path}: no such file or folder`);
    }
    if (isDir) walk(path);
    else read(path, true);
  }
  return out;
}
