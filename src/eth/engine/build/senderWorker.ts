/**
 * Worker entry of senders.ts: recovers the sender public keys of raw transactions, in order, and
 * posts them in batches (`{ from, keys, addresses, hashes, ok }`: 64 bytes of key, 20 of address
 * (the key's keccak, last 20 bytes) and 32 of hash per transaction). ok[i] = 0 where decoding or recovery failed (the main thread then tries that one
 * itself and reports its error); 1: the key only; 3: the key, and the raw bytes are exactly what
 * @ethereumjs serializes the decoded transaction to, so the hash (keccak of those bytes) is the
 * transaction's hash and the main thread may use the raw bytes as its serialization.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createTxFromRLP } from '@ethereumjs/tx';
import { equalsBytes, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { seedCommon } from '../exec/common.js';
import type { SenderJob } from './senders.js';

const job = workerData as SenderJob;
const common = seedCommon(job.chainId, job.name, job.hardfork);
const keccak = common.customCrypto.keccak256 ?? keccak_256;
/** Small first batches, so the first blocks need not wait for many recoveries. */
const batchSize = (from: number) => (from < 64 ? 16 : 256);

for (let from = 0; from < job.raws.length; ) {
  const n = Math.min(batchSize(from), job.raws.length - from);
  const keys = new Uint8Array(n * 64);
  const addresses = new Uint8Array(n * 20);
  const hashes = new Uint8Array(n * 32);
  const ok = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    try {
      const raw = hexToBytes(job.raws[from + i] as PrefixedHexString);
      const tx = createTxFromRLP(raw, { common });
      const key = tx.getSenderPublicKey();
      if (key.length !== 64) continue;
      keys.set(key, i * 64);
      addresses.set(keccak(key).subarray(12), i * 20);
      ok[i] = 1;
      if (equalsBytes(tx.serialize(), raw)) {
        hashes.set(keccak(raw), i * 32);
        ok[i] = 3;
      }
    } catch {
      // Left to the main thread, which reports the error where the seed has it.
    }
  }
  parentPort!.postMessage({ from, keys, addresses, hashes, ok }, [keys.buffer, addresses.buffer, hashes.buffer, ok.buffer]);
  from += n;
}
