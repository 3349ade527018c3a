/** The pool's list as the chain keeps it: a split by transaction hash. */
import { plainHex } from '../../../hex.js';
import type { PendingTx } from './types.js';

/** The pool split into the transactions whose hashes are given (`taken`) and the rest (`kept`), each in pool order. */
export function partitionByHash(pool: readonly PendingTx[], hashes: readonly Uint8Array[]): { taken: PendingTx[]; kept: PendingTx[] } {
  const wanted = new Set(hashes.map(plainHex));
  const taken: PendingTx[] = [];
  const kept: PendingTx[] = [];
  for (const p of pool) (wanted.has(plainHex(p.tx.hash())) ? taken : kept).push(p);
  return { taken, kept };
}
