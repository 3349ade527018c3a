/**
 * Sender recovery of a seed's raw transactions on a worker thread (senderWorker.ts), ahead of the
 * block building that needs them: recovery is most of what a raw transaction costs before it runs
 * (~0.1-0.25 ms each with native secp256k1), and building has the main thread busy. A key the worker
 * could not give (bad transaction, no worker) is undefined: the caller recovers it itself, so the
 * results never depend on the worker, only the time does.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What the worker is given: the seed's Common (as seedCommon makes it) and the raw transactions in order. */
export interface SenderJob {
  readonly chainId: number;
  readonly name: string;
  readonly hardfork: string;
  readonly raws: readonly string[];
}

interface Batch {
  from: number;
  keys: Uint8Array;
  addresses: Uint8Array;
  hashes: Uint8Array;
  ok: Uint8Array;
}

/**
 * What the worker gives of a raw transaction: its sender's public key (64 bytes) and address, and, when the raw
 * bytes are the transaction's own serialization (canonical RLP, as @ethereumjs writes it back), its
 * hash: the main thread then neither serializes nor hashes it again (hash, transaction trie, chain image).
 */
export interface RecoveredTx {
  readonly publicKey: Uint8Array;
  /** The sender's address (20 bytes: the last of the key's keccak); absent: hash the key. */
  readonly address?: Uint8Array;
  readonly hash?: Uint8Array;
}

/** Below this many raw transactions a worker costs more to start (~0.1-0.3 s) than it saves. */
export const MIN_RAW_TXS_FOR_WORKER = 256;

export class SenderKeys {
  private readonly keys: (RecoveredTx | undefined)[] = [];
  private received = 0;
  private ended = false;
  private waiting: (() => void)[] = [];

  private constructor(
    private readonly worker: Worker,
    private readonly count: number,
  ) {
    worker.on('message', (batch: Batch) => {
      for (let i = 0; i < batch.ok.length; i++) {
        const ok = batch.ok[i]!;
        this.keys[batch.from + i] =
          ok === 0
            ? undefined
            : {
                publicKey: batch.keys.subarray(i * 64, i * 64 + 64),
                address: batch.addresses.subarray(i * 20, i * 20 + 20),
                hash: ok === 3 ? batch.hashes.subarray(i * 32, i * 32 + 32) : undefined,
              };
      }
      this.received = batch.from + batch.ok.length;
      if (this.received >= this.count) this.close();
      this.notify();
    });
    // A worker that fails or stops early leaves the rest to the caller.
    const end = () => {
      this.ended = true;
      this.notify();
    };
    worker.on('error', end);
    worker.on('exit', end);
  }

  /** Starts recovering `job.raws` on a worker; undefined when a worker cannot be started here. */
  static start(job: SenderJob): SenderKeys | undefined {
    const worker = startWorker(job);
    return worker === undefined ? undefined : new SenderKeys(worker, job.raws.length);
  }

  /** The sender key (and hash, see RecoveredTx) of raw transaction `index`, or undefined: recover it yourself. */
  async get(index: number): Promise<RecoveredTx | undefined> {
    while (index >= this.received && !this.ended) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return index < this.received ? this.keys[index] : undefined;
  }

  /** Stops the worker (once every key arrived, or when the caller no longer needs them). */
  close(): void {
    this.ended = true;
    void this.worker.terminate();
  }

  private notify(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}

/**
 * The worker: senderWorker.js next to this module when built (dist/); from the sources (tsx,
 * vitest) senderWorker.ts, imported after registering tsx in the worker (Node 20 workers do not
 * take the parent's loader hooks). Undefined when it cannot be started.
 */
function startWorker(job: SenderJob): Worker | undefined {
  try {
    if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./senderWorker.js', import.meta.url), { workerData: job });
    const tsxApi = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
    const entry = new URL('./senderWorker.ts', import.meta.url).href;
    const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(code, { eval: true, workerData: job });
  } catch {
    return undefined;
  }
}
