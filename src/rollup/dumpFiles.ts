/**
 * The files of devnet_dump and devnet_load, where a request names a path: a request must never write or read an
 * arbitrary file of the server. The rule (docs/rollup.md, "Dump and load"):
 *
 * - Paths are off unless devgate was started with a dump directory (`--dump-dir DIR`, `start({ dumpDir })`).
 * - A path names a file directly in that directory: a plain name (a letter or digit, then letters, digits, `.`, `_`,
 *   `-`; at most 128 characters: no separator, no `..`, no hidden file), or an absolute path written as the directory
 *   (as given at start, or its real path) plus such a name. Nothing else is resolved: no subdirectory, no traversal.
 * - Symbolic links are refused, never followed: a dump is read through O_NOFOLLOW and must be a regular file; it is
 *   written to a fresh hidden file created with O_EXCL | O_NOFOLLOW in the directory, flushed, then renamed over the
 *   name (a rename replaces a link itself, it never writes through it), so a write is also atomic.
 */
import { constants } from 'node:fs';
import { mkdir, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { InvalidArgument } from '../errors.js';
import { dumpFailure } from './dumpAnswer.js';

/** A dump directory: as given at start (resolved) and its real path (symlinks of its own path resolved once, at start). */
export interface DumpDir {
  readonly given: string;
  readonly real: string;
}

/** The largest dump file devnet_load reads. */
export const MAX_DUMP_FILE_BYTES = 512 * 1024 * 1024;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Creates the dump directory if needed; throws (at start) when it cannot be used. */
export async function prepareDumpDir(dir: string): Promise<DumpDir> {
  const given = resolve(dir);
  await mkdir(given, { recursive: true });
  const real = await realpath(given);
  if (!(await stat(real)).isDirectory()) throw new TypeError(`invalid devgate options:\ndumpDir: ${given} is not a directory`);
  return { given, real };
}

/** The file a request's `path` names inside `dir`; InvalidArgument (-32602) for any other path, RollupError when paths are off. */
export function dumpFilePath(dir: DumpDir | undefined, path: string, method: string): string {
  if (dir === undefined)
    throw dumpFailure(
      `${method}: file paths are off; start devgate with --dump-dir DIR (start({ dumpDir })) to use files in DIR` +
        (method === 'devnet_dump' ? ', or call devnet_dump without a path to get the dump in the answer' : ', or pass the dump itself as "dump"'),
    );
  let name = path;
  if (isAbsolute(path)) {
    const inside = [dir.given, dir.real].find((d) => path.startsWith(d + sep));
    name = inside === undefined ? '' : path.slice(inside.length + 1);
    if (!NAME.test(name)) throw new InvalidArgument(`path ${JSON.stringify(path)} is not a file directly in the dump directory ${dir.given}`);
  } else if (!NAME.test(name)) {
    throw new InvalidArgument(
      `path ${JSON.stringify(path)}: want a file name in the dump directory (a letter or digit, then letters, digits, ".", "_" or "-"; at most 128 characters) or an absolute path to one`,
    );
  }
  return join(dir.real, name);
}

/** The bytes of a dump file; RollupError (-1) when it is missing, a link, not a regular file or too large. */
export async function readDumpFile(file: string): Promise<Buffer> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw dumpFailure(`The file does not exist: ${file}`);
    if (code === 'ELOOP') throw dumpFailure(`${file} is a symbolic link; devgate reads only regular files of the dump directory`);
    throw dumpFailure(`cannot read ${file}: ${code ?? (err as Error).message}`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw dumpFailure(`${file} is not a regular file`);
    if (st.size > MAX_DUMP_FILE_BYTES) throw dumpFailure(`${file} has ${st.size} bytes; devnet_load reads at most ${MAX_DUMP_FILE_BYTES}`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

let written = 0;

/** Writes `text` to `file` (a path from dumpFilePath) atomically, never through a link. */
export async function writeDumpFile(file: string, text: string): Promise<void> {
  const dir = file.slice(0, file.lastIndexOf(sep));
  const tmp = join(dir, `.${file.slice(dir.length + 1)}.${process.pid}.${++written}.tmp`);
  let created = false;
  try {
    const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    created = true;
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    if (created) await rm(tmp, { force: true }).catch(() => {});
    const code = (err as NodeJS.ErrnoException).code;
    throw dumpFailure(`cannot write ${file}: ${code === 'EISDIR' ? 'it is a directory' : (code ?? (err as Error).message)}`);
  }
  try {
    const d = await open(dir, constants.O_RDONLY);
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename itself is still atomic.
  }
}
