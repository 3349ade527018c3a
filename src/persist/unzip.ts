/**
 * The one guard of every decompression devgate does on bytes it is given (anvil_loadState, devnet_load, the state
 * files of `--state` / `--load-state` / `gw.loadState()`, RLP chain files): a gzip that unzips past a cap is refused
 * naming the cap, before more than the cap is held. A small gzip can unzip to gigabytes (0.65 MB to 640 MB of zeros),
 * so one request must not take the process's memory. The async form unzips on libuv's thread pool, so other
 * networks are served meanwhile; the sync form is for paths that are sync by nature (a process start).
 */
import { gunzip, gunzipSync } from 'node:zlib';

/** At most this many bytes once unzipped, by default (a 1,000-block rollup dumps to under 1 MB; anvil states of forks to tens of MB). */
export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;

/** True when `bytes` start as a gzip stream does. */
export const isGzip = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** The gzip unzips past the cap. */
export class UnzipTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`it unzips to more than ${limit / 2 ** 20} MB, the limit`);
  }
}

/** The gzip is damaged or truncated. */
export class UnzipFailed extends Error {}

/** Output chunks of 1 MB, not zlib's 16 KB: a quarter of the time for a large output (each chunk is a trip to the thread pool). */
const CHUNK = 1024 * 1024;

const failure = (err: unknown, limit: number): Error =>
  (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? new UnzipTooLarge(limit) : new UnzipFailed((err as Error).message);

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Unzips `bytes` off the event loop, holding at most `limit` bytes; throws UnzipTooLarge or UnzipFailed. */
export function gunzipCapped(bytes: Uint8Array, limit = MAX_UNZIPPED_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    gunzip(asBuffer(bytes), { maxOutputLength: limit, chunkSize: CHUNK }, (err, out) => (err ? reject(failure(err, limit)) : resolve(out)));
  });
}

/** gunzipCapped on the calling thread (for sync paths: a process start, devnet_load's sync reader). */
export function gunzipCappedSync(bytes: Uint8Array, limit = MAX_UNZIPPED_BYTES): Buffer {
  try {
    return gunzipSync(asBuffer(bytes), { maxOutputLength: limit, chunkSize: CHUNK });
  } catch (err) {
    throw failure(err, limit);
  }
}
