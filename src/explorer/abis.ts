/**
 * The ABIs devgate knows: every compiled artifact (`<Name>.json` with an `abi` array, as solc/hardhat/foundry write
 * them) in the shipped contracts' folder and in each seed's `contracts/` folder, and each artifact a seed names by
 * path (its build output). Only functions, events and errors are kept; an unreadable file is skipped (the explorer
 * shows such data undecoded, never fails for it).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface KnownAbi {
  /** The artifact's name (`Token`). */
  readonly name: string;
  readonly abi: readonly unknown[];
}

/** Files read per folder, and bytes per file: artifacts are small, a folder of something else is not read whole. */
const MAX_FILES = 500;
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The ABIs of every `.json` in `dirs` (sorted, at most MAX_FILES a folder), of `files`, then `given` (the artifacts a
 * user handed devgate, read at start: artifacts.ts); an ABI seen before is skipped.
 */
export function knownAbis(sources: { readonly dirs: readonly string[]; readonly files: readonly string[] }, given: readonly KnownAbi[] = []): KnownAbi[] {
  const seen = new Set<string>();
  const out: KnownAbi[] = [];
  const keep = (name: string, abi: readonly unknown[]): void => {
    const text = JSON.stringify(abi);
    if (seen.has(text)) return;
    seen.add(text);
    out.push({ name, abi });
  };
  const add = (path: string): void => {
    const abi = readAbi(path);
    if (abi !== undefined) keep(basename(path, '.json'), abi);
  };
  for (const dir of new Set(sources.dirs)) {
    if (!existsSync(dir)) continue;
    let files: string[];
    try {
      files = readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .slice(0, MAX_FILES);
    } catch {
      continue;
    }
    for (const file of files) add(join(dir, file));
  }
  for (const file of new Set(sources.files)) add(file);
  for (const { name, abi } of given) keep(name, abi);
  return out;
}

function readAbi(path: string): unknown[] | undefined {
  try {
    if (statSync(path).size > MAX_FILE_BYTES) return undefined;
    const abi = (JSON.parse(readFileSync(path, 'utf8')) as { abi?: unknown }).abi;
    if (!Array.isArray(abi)) return undefined;
    return abi.filter((item) => {
      const type = (item as { type?: unknown } | null)?.type;
      return type === 'function' || type === 'event' || type === 'error';
    });
  } catch {
    return undefined;
  }
}
