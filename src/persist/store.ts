/**
 * A data directory (`--data-dir DIR`, `start({ dataDir })`): one LMDB environment, `DIR/chains.mdb`, with a
 * named database per network, and a lock file, `DIR/devgate.lock`, so that two devgate processes never write
 * the same directory. LMDB (the `lmdb` package, prebuilt binary, no install script) was measured against
 * classic-level: it reopens a 10,000-block store 4-5x faster and reads synchronously, which the trie's node
 * store needs (see docs/persistence.md "Data directory" for the figures).
 *
 * A directory that holds other files, a chains.mdb that is not an LMDB environment, or one devgate did not
 * write is refused with a DataDirError naming the problem; nothing in it is changed.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { lmdbFileProblem } from './lmdbFile.js';

/** Bumped whenever the layout or the meaning of a record changes; another format is refused. */
export const DATA_DIR_FORMAT = 1;
const MAGIC = 'devgate-data-dir';
const STORE_FILE = 'chains.mdb';
const LOCK_FILE = 'devgate.lock';

export class DataDirError extends Error {
  override name = 'DataDirError';
}

/** A network's own database in the data directory: binary keys, binary values. */
export type NetworkDb = Database<Uint8Array, Uint8Array>;

export class DataDir {
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly root: RootDatabase<Uint8Array, string>,
    private readonly lockFile: string,
  ) {}

  /**
   * Opens (or creates) the data directory at `dir`. Throws DataDirError for a directory of other files, a
   * store that is not devgate's (or of another format), or a directory another running devgate holds.
   */
  static open(dir: string): DataDir {
    const path = resolve(dir);
    if (existsSync(path) && !statSync(path).isDirectory()) throw new DataDirError(`${path} is a file, not a data directory: give a directory`);
    if (existsSync(path)) {
      const other = readdirSync(path).filter((f) => f !== STORE_FILE && f !== `${STORE_FILE}-lock` && f !== LOCK_FILE);
      if (other.length > 0 && !existsSync(join(path, STORE_FILE))) {
        throw new DataDirError(
          `${path} is not a devgate data directory (it holds ${other.slice(0, 3).join(', ')}${other.length > 3 ? ', ...' : ''}): give an empty or new directory`,
        );
      }
    }
    try {
      mkdirSync(path, { recursive: true });
    } catch (err) {
      throw new DataDirError(`cannot make the data directory ${path}: ${(err as Error).message}`);
    }
    const lockFile = takeLock(path);
    let root: RootDatabase<Uint8Array, string> | undefined;
    try {
      const file = join(path, STORE_FILE);
      const problem = existsSync(file) ? lmdbFileProblem(file) : undefined;
      if (problem !== undefined)
        throw new DataDirError(`${file} is not a readable devgate data store (${problem}): give another --data-dir, or remove it to start afresh`);
      try {
        root = open<Uint8Array, string>({ path: join(path, STORE_FILE), noSubdir: true, encoding: 'binary', maxDbs: 256 });
      } catch (err) {
        throw new DataDirError(
          `${join(path, STORE_FILE)} is not a readable devgate data store (${(err as Error).message}): give another --data-dir, or remove it to start afresh`,
        );
      }
      const magic = root.get(MAGIC);
      if (magic === undefined) {
        const names = [...root.getKeys({ limit: 1 })];
        if (names.length > 0) throw new DataDirError(`${join(path, STORE_FILE)} was not written by devgate: give another --data-dir`);
        root.putSync(MAGIC, Buffer.from(String(DATA_DIR_FORMAT)));
      } else if (Buffer.from(magic).toString() !== String(DATA_DIR_FORMAT)) {
        throw new DataDirError(`${path} is a devgate data directory of format ${Buffer.from(magic).toString()}, this devgate reads format ${DATA_DIR_FORMAT}`);
      }
      return new DataDir(path, root, lockFile);
    } catch (err) {
      void root?.close();
      rmSync(lockFile, { force: true });
      throw err;
    }
  }

  /** The database of the network `name` of `kind` (`eth`, `rollup`: src/kinds.ts), created empty when new. */
  network(kind: string, name: string): NetworkDb {
    return this.root.openDB<Uint8Array, Uint8Array>({ name: `${kind}:${name}`, encoding: 'binary', keyEncoding: 'binary' });
  }

  /** Waits for every write, closes the store and frees the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.root.flushed;
    await this.root.close();
    rmSync(this.lockFile, { force: true });
  }
}

/** Takes `DIR/devgate.lock` (our pid); a lock of a process that is gone (a kill -9) is taken over. */
function takeLock(dir: string): string {
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new DataDirError(`cannot lock the data directory ${dir}: ${(err as Error).message}`);
      const pid = Number(readFileSafe(file));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new DataDirError(`the data directory ${dir} is in use by another devgate (pid ${pid})`);
      }
      if (pid === process.pid) throw new DataDirError(`the data directory ${dir} is already open in this process`);
      rmSync(file, { force: true });
    }
  }
  throw new DataDirError(`cannot lock the data directory ${dir}`);
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
