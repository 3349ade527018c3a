/**
 * The pool's size limits, as geth's legacypool (core/txpool/legacypool): a transaction of more than 128 KB is
 * refused ("oversized data"); each transaction takes ceil(size / 32 KB) slots, and the pool holds at most
 * GlobalSlots + GlobalQueue slots (4096 + 1024). A pool that is full makes room by evicting the lowest-priced
 * transactions of other senders when the new one pays more than they do (geth evicts underpriced remote
 * transactions; every transaction devgate holds came over RPC), else refuses it: "transaction underpriced" when it
 * pays no more than the cheapest, "txpool is full" when no room can be made. Transactions waiting behind a nonce
 * gap (queued) are at most AccountQueue per sender ("account limit exceeded", geth's text for an account over
 * its share) and GlobalQueue in all (past it, queued ones of lower price are evicted, or the new one refused).
 * So txpool_content and txpool_inspect stay bounded: at most (GlobalSlots + GlobalQueue) x 32 KB of transactions.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { PendingTx } from '../chain/types.js';
import { feeCaps } from './pool.js';
import { TxRejected } from './txRejected.js';

/** The pool's limits (the gateway's txpool* limits; geth's defaults). */
export interface PoolLimits {
  readonly txpoolMaxTxBytes: number;
  readonly txpoolAccountSlots: number;
  readonly txpoolGlobalSlots: number;
  readonly txpoolAccountQueue: number;
  readonly txpoolGlobalQueue: number;
}

export const GETH_POOL_LIMITS: PoolLimits = {
  txpoolMaxTxBytes: 128 * 1024,
  txpoolAccountSlots: 16,
  txpoolGlobalSlots: 4096 + 1024,
  txpoolAccountQueue: 64,
  txpoolGlobalQueue: 1024,
};

/** geth's txSlotSize: a transaction takes one slot per started 32 KB. */
const SLOT_BYTES = 32 * 1024;

/** Each transaction's encoded size, made once. */
const sizes = new WeakMap<TypedTransaction, number>();
export function txSize(tx: TypedTransaction): number {
  let size = sizes.get(tx);
  if (size === undefined) sizes.set(tx, (size = tx.serialize().length));
  return size;
}

/** geth's numSlots. */
export const slotsOf = (tx: TypedTransaction): number => Math.max(1, Math.ceil(txSize(tx) / SLOT_BYTES));

/** Refuses a transaction over the size limit with geth's text. */
export function checkTxSize(tx: TypedTransaction, limits: PoolLimits): void {
  checkSize(txSize(tx), limits.txpoolMaxTxBytes);
}

/** Refuses an encoded transaction of `size` bytes past `limit`, with geth's text (rawTx.ts checks a raw send's bytes). */
export function checkSize(size: number, limit: number): void {
  if (size > limit) throw new TxRejected(`oversized data: transaction size ${size}, limit ${limit}`);
}

/** What the limits check needs to know of the pool: each entry and whether it waits behind a nonce gap. */
export interface PoolEntry {
  readonly pending: PendingTx;
  readonly queued: boolean;
}

/** Lower price first: fee cap, then tip cap (geth's priced list compares the same two). */
const cheaper = (a: TypedTransaction, b: TypedTransaction): number => {
  const x = feeCaps(a);
  const y = feeCaps(b);
  if (x.feeCap !== y.feeCap) return x.feeCap < y.feeCap ? -1 : 1;
  return x.tipCap < y.tipCap ? -1 : x.tipCap > y.tipCap ? 1 : 0;
};

/**
 * Checks a new transaction (not a replacement) against the pool's limits; answers the entries to evict to make room
 * (other senders', lowest price first; an account's executable transactions within its AccountSlots last), or throws
 * TxRejected with geth's text.
 */
export function makeRoom(tx: TypedTransaction, sender: Address, queued: boolean, entries: readonly PoolEntry[], limits: PoolLimits): PendingTx[] {
  if (queued) {
    const own = entries.filter((e) => e.queued && e.pending.sender.equals(sender)).length;
    if (own >= limits.txpoolAccountQueue) throw new TxRejected('account limit exceeded');
  }
  // Executable slots per sender: an account within its guaranteed AccountSlots is evicted from last.
  const executable = new Map<string, number>();
  for (const e of entries)
    if (!e.queued) executable.set(e.pending.sender.toString(), (executable.get(e.pending.sender.toString()) ?? 0) + slotsOf(e.pending.tx));
  const guaranteed = (e: PoolEntry) => !e.queued && (executable.get(e.pending.sender.toString()) ?? 0) <= limits.txpoolAccountSlots;
  const others = entries.filter((e) => !e.pending.sender.equals(sender));
  const evicted = new Set<PendingTx>();
  let usedSlots = entries.reduce((n, e) => n + slotsOf(e.pending.tx), 0);
  let queuedCount = entries.reduce((n, e) => (e.queued ? n + 1 : n), 0);
  const evictCheapest = (pool: readonly PoolEntry[], enough: () => boolean) => {
    const candidates = pool
      .filter((e) => !evicted.has(e.pending))
      .sort((a, b) => Number(guaranteed(a)) - Number(guaranteed(b)) || cheaper(a.pending.tx, b.pending.tx));
    for (const c of candidates) {
      if (enough()) return;
      if (cheaper(c.pending.tx, tx) >= 0) throw new TxRejected('transaction underpriced');
      evicted.add(c.pending);
      usedSlots -= slotsOf(c.pending.tx);
      if (c.queued) queuedCount--;
    }
    if (!enough()) throw new TxRejected('txpool is full');
  };
  if (queued && queuedCount >= limits.txpoolGlobalQueue)
    evictCheapest(
      others.filter((e) => e.queued),
      () => queuedCount < limits.txpoolGlobalQueue,
    );
  const capacity = limits.txpoolGlobalSlots + limits.txpoolGlobalQueue;
  const need = slotsOf(tx);
  if (usedSlots + need > capacity) evictCheapest(others, () => usedSlots + need <= capacity);
  return [...evicted];
}
