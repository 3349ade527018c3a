/**
 * The byte budgets of polling filters (GatewayLimits: maxFilters, maxFilterBytes, maxFilterBytesPerKey,
 * maxFilterBytesTotal). What a filter buffers is counted as the bytes eth_getFilterChanges would answer for it (a
 * hash ~70, a log ~370 + 69 per topic + 2 per data byte), which also bounds that answer. Past a filter's own budget
 * that filter is dropped, as geth drops a filter it cannot keep; past its key's budget the key's largest filter, past
 * the network's the network's largest (ties: the least recently polled, then the oldest): the one most likely
 * abandoned, never a small filter polled often. A full network evicts the least recently polled filter of the key
 * holding the most, so a key with none always gets one.
 */

export interface FilterLimits {
  readonly maxFilters: number;
  readonly maxFilterBytes: number;
  readonly maxFilterBytesPerKey: number;
  readonly maxFilterBytesTotal: number;
}

/** What the budget needs of a filter. */
export interface Budgeted {
  readonly id: bigint;
  readonly owner: string;
  readonly lastPoll: number;
  bytes: number;
}

/** A buffered hash as a poll answers it: `"0x` + 64 digits + `",`. */
export const HASH_BYTES = 70;

/** A buffered log as a poll answers it (its fixed fields ~370 bytes, then topics and data in hex). */
export function logBytes(log: { readonly topics: readonly unknown[]; readonly data: Uint8Array }): number {
  return 370 + 69 * log.topics.length + 2 * log.data.length;
}

interface Held<F> {
  /** In the order they were last polled (or made): the least recently polled first. */
  readonly filters: Set<F>;
  bytes: number;
}

export class FilterBudget<F extends Budgeted> {
  private readonly keys = new Map<string, Held<F>>();
  private total = 0;

  constructor(
    private readonly limits: () => FilterLimits,
    private readonly drop: (f: F) => void,
  ) {}

  countOf(key: string): number {
    return this.keys.get(key)?.filters.size ?? 0;
  }

  bytesOf(key?: string): number {
    return key === undefined ? this.total : (this.keys.get(key)?.bytes ?? 0);
  }

  added(f: F): void {
    let held = this.keys.get(f.owner);
    if (held === undefined) this.keys.set(f.owner, (held = { filters: new Set(), bytes: 0 }));
    held.filters.add(f);
  }

  removed(f: F): void {
    const held = this.keys.get(f.owner);
    if (held === undefined || !held.filters.delete(f)) return;
    this.emptied(f);
    if (held.filters.size === 0) this.keys.delete(f.owner);
  }

  /** The filter was polled: it goes last in its key's order (the least recently polled is found first, in O(1)). */
  polled(f: F): void {
    const held = this.keys.get(f.owner);
    if (held === undefined || !held.filters.delete(f)) return;
    held.filters.add(f);
  }

  /** The filter's buffer was handed out: it holds nothing now. */
  emptied(f: F): void {
    const held = this.keys.get(f.owner);
    if (held !== undefined) held.bytes -= f.bytes;
    this.total -= f.bytes;
    f.bytes = 0;
  }

  /** Whether `bytes` more fit the filter's own budget; if not, it is dropped. */
  fits(f: F, bytes: number): boolean {
    if (f.bytes + bytes <= this.limits().maxFilterBytes) return true;
    this.drop(f);
    return false;
  }

  /**
   * The filter took `bytes` more: its key's and the network's budgets drop their largest filters until they fit.
   * Answers the work done: the filters looked at to find them (a caller yielding by work counts it).
   */
  grew(f: F, bytes: number): number {
    const held = this.keys.get(f.owner);
    if (held === undefined) return 0;
    f.bytes += bytes;
    held.bytes += bytes;
    this.total += bytes;
    const limits = this.limits();
    let looked = 0;
    while (held.bytes > limits.maxFilterBytesPerKey && held.filters.size > 0) {
      looked += held.filters.size;
      this.drop(first(held.filters, larger)!);
    }
    while (this.total > limits.maxFilterBytesTotal && this.keys.size > 0) {
      let victim: F | undefined;
      for (const h of this.keys.values()) {
        looked += h.filters.size;
        const big = first(h.filters, larger);
        if (big !== undefined && (victim === undefined || larger(big, victim))) victim = big;
      }
      this.drop(victim!);
    }
    return looked;
  }

  /**
   * Before a filter is added to `size` filters: evicts until there is room (the least recently polled filter of the
   * key holding the most: the first of its poll order). Work per eviction: the number of keys, not of filters.
   */
  makeRoom(size: number): void {
    const max = this.limits().maxFilters;
    for (let n = size; n >= max && this.keys.size > 0; n--) {
      let most: Held<F> | undefined;
      for (const h of this.keys.values()) if (most === undefined || h.filters.size > most.filters.size) most = h;
      this.drop(most!.filters.values().next().value!);
    }
  }
}

/** The filter that comes first by `before`. */
function first<F>(filters: Iterable<F>, before: (a: F, b: F) => boolean): F | undefined {
  let best: F | undefined;
  for (const f of filters) if (best === undefined || before(f, best)) best = f;
  return best;
}

/** Whether `a` goes before `b` when the largest goes: more bytes, then polled longer ago, then older. */
function larger(a: Budgeted, b: Budgeted): boolean {
  if (a.bytes !== b.bytes) return a.bytes > b.bytes;
  return staler(a, b);
}

/** Whether `a` was polled longer ago than `b` (then: older). */
function staler(a: Budgeted, b: Budgeted): boolean {
  if (a.lastPoll !== b.lastPoll) return a.lastPoll < b.lastPoll;
  return a.id < b.id;
}
