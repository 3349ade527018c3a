/**
 * Worker entry of senders.ts: recovers the sender public keys of raw transactions, in order, and
 * posts them in batches (`{ from, keys, ok }`: 64 bytes per transaction, ok[i] = 0 where decoding or
 * recovery failed; the main thread then tries that one itself and reports its error).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createTxFromRLP } from '@ethereumjs/tx';
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { seedCommon } from '../exec/common.js';
import type { SenderJob } from './senders.js';

const job = workerData as SenderJob;
const common = seedCommon(job.chainId, job.name, job.hardfork);
/** Small first batches, so the first blocks need not wait for many recoveries. */
const batchSize = (from: number) => (from < 64 ? 16 : 256);

for (let from = 0; from < job.raws.length; ) {
  const n = Math.min(batchSize(from), job.raws.length - from);
  const keys = new Uint8Array(n * 64);
  const ok = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    try {
      const tx = createTxFromRLP(hexToBytes(job.raws[from + i] as PrefixedHexString), { common });
      const key = tx.getSenderPublicKey();
      if (key.length !== 64) continue;
      keys.set(key, i * 64);
      ok[i] = 1;
    } catch {
      // Left to the main thread, which reports the error where the seed has it.
    }
  }
  parentPort!.postMessage({ from, keys, ok }, [keys.buffer, ok.buffer]);
  from += n;
}
