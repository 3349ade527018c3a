/**
 * The brute-force search behind a deletion's sibling (forkState.ts): a key of `length` bytes whose keccak256 starts
 * with given nibbles, counting up from 1 (deterministic: the same key every time), on a worker thread so the main
 * thread keeps serving. The worker hashes with @noble/hashes (JavaScript), never the native keccak binding: a worker
 * is terminated when it is cancelled (an AbortSignal, or the time limit) or answers, and terminating a worker inside a
 * call of the `keccak` addon is a fatal error of the whole process (`napi_create_reference`, seen in a test run).
 * Where no worker can start, the search runs on the main thread, yielding every 2,048 hashes.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface SearchJob {
  readonly prefix: readonly number[];
  readonly length: number;
  /** How many keys at most (then undefined). */
  readonly tries: number;
}

/** The longest one search may run on its worker (then the deletion fails naming it). */
export const SEARCH_TIME_LIMIT_MS = 120_000;

/** The worker: plain JavaScript (no TypeScript loader needed in the worker, from dist/ or the sources alike). */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { prefix, length, tries, nobleUrl } = workerData;
import(nobleUrl).then(({ keccak_256: hash }) => {
  const key = Buffer.alloc(length);
  for (let n = 1; n <= tries; n++) {
    for (let i = 0, v = n; i < 6; i++, v = Math.floor(v / 256)) key[length - 1 - i] = v & 255;
    const h = hash(key);
    let ok = true;
    for (let i = 0; i < prefix.length && ok; i++) ok = ((i & 1) === 0 ? h[i >> 1] >> 4 : h[i >> 1] & 15) === prefix[i];
    if (ok) return parentPort.postMessage({ key: Uint8Array.from(key), hashes: n });
  }
  parentPort.postMessage({ hashes: tries });
});
`;

function paths(): { nobleUrl: string } | undefined {
  try {
    return { nobleUrl: pathToFileURL(createRequire(import.meta.url).resolve('@noble/hashes/sha3.js')).href };
  } catch {
    return undefined;
  }
}

/** The outcome of a search: the key found (or undefined after `tries`), and how many keys were hashed. */
export interface SearchResult {
  readonly key?: Uint8Array;
  readonly hashes: number;
}

/**
 * Searches on a worker; undefined when no worker could start (the caller searches itself). Rejects when `signal`
 * aborts or the time limit passes (the worker is terminated).
 */
export function searchOnWorker(job: SearchJob, signal?: AbortSignal, limitMs = SEARCH_TIME_LIMIT_MS): Promise<SearchResult> | undefined {
  const where = paths();
  if (where === undefined) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(WORKER, { eval: true, workerData: { ...job, prefix: [...job.prefix], ...where } });
  } catch {
    return undefined;
  }
  return new Promise<SearchResult>((resolve, reject) => {
    const done = (finish: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      void worker.terminate();
      finish();
    };
    const abort = () => done(() => reject(new Error('the key search was cancelled')));
    const timer = setTimeout(() => done(() => reject(new Error(`the key search ran past its ${limitMs / 1000} s limit`))), limitMs);
    timer.unref();
    signal?.addEventListener('abort', abort, { once: true });
    if (signal?.aborted) return abort();
    worker.once('message', (m: SearchResult) => done(() => resolve({ key: m.key === undefined ? undefined : new Uint8Array(m.key), hashes: m.hashes })));
    worker.once('error', (err) => done(() => reject(err)));
  });
}
