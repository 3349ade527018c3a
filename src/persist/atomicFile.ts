/**
 * Atomic state files: written to `<file>.tmp` beside the target, flushed to disk (fsync), renamed over the target,
 * and the directory flushed, so a crash (kill -9, power loss) at any moment leaves either the previous file or the
 * new one, whole. A leftover `<file>.tmp` of a crashed write is never read and is overwritten by the next write.
 */
import { constants } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DumpError } from './dumpError.js';

/** Writes `bytes` to `file` atomically (see above). */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o644);
  try {
    for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
  try {
    const dir = await open(dirname(file), constants.O_RDONLY);
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename itself is still atomic.
  }
}

/** The bytes of a state file; DumpError when it cannot be read. */
export async function readStateFile(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DumpError(code === 'ENOENT' ? `state file ${file} does not exist` : `cannot read state file ${file}: ${(err as Error).message}`);
  }
}
