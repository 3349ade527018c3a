/**
 * Polling filters of an eth network (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter), as
 * geth keeps them: fed by the chain's events, each buffers what happened since it was last polled; one idle for
 * 5 minutes is removed. When blocks leave the chain (a revert or reset), log filters get their logs again with
 * `removed: true`, as a node does on a reorg. Knows nothing of JSON-RPC: the methods format what it hands out.
 *
 * Filters are kept per API key, as the hosted gateway does (a filter id can be polled with the key that made it, from
 * any connection): `of(origin)` is one key's view, which holds at most `origin.maxFilters` filters (-32005 past it)
 * and sees no other key's filter. Without a gateway caller (in-process use) every filter is seen.
 *
 * Budgets (filterBudget.ts): what a filter buffers is counted in bytes, per filter, per key and per network; past
 * one, a filter is dropped as geth drops it, and its next poll answers `filter not found`. A network full of filters
 * evicts the least recently polled filter of the key holding the most, so a new key always gets one. Events reach
 * the filters through a FanOut (yielding by work done); a poll first catches its own filter up.
 */
import { setClockTimer, type Clock } from '../clock.js';
import { DevgateError, LimitExceeded } from '../errors.js';
import type { CallOrigin } from '../networkTypes.js';
import type { EthChain } from '../eth/engine/chain/chain.js';
import type { MinedBlock } from '../eth/engine/chain/types.js';
import { DEFAULT_LIMITS } from '../gateway/limits.js';
import { blockLogIndexSliced } from '../eth/engine/query/logIndex.js';
import { FilterBudget, HASH_BYTES, logBytes, type FilterLimits } from './filterBudget.js';
import { slicePause } from '../turnSlice.js';
import { FAN_OUT_SLICE, FanOut, LOOK_WORK, manyLogs } from './fanOut.js';
import { criteriaKey, matchingLogsSliced, type FilterLog, type LogCriteria, type Matched } from './sharedLogs.js';

export type { FilterLog, LogCriteria } from './sharedLogs.js';

export type FilterChanges =
  | { readonly kind: 'blocks'; readonly hashes: readonly Uint8Array[] }
  | { readonly kind: 'pendingTransactions'; readonly hashes: readonly Uint8Array[] }
  | { readonly kind: 'logs'; readonly logs: readonly FilterLog[] };

interface FilterBase {
  readonly id: bigint;
  /** The key that made it; '' without a gateway caller (seen by every caller). */
  readonly owner: string;
  lastPoll: number;
  /** The last event (seq) it has taken. */
  seen: number;
  /** Bytes of what it buffers, as a poll would answer them. */
  bytes: number;
}
type HashFilter = FilterBase & { kind: 'blocks' | 'pendingTransactions'; items: Uint8Array[] };
/**
 * A log filter's buffer is the lists of logs it took, one per event: the lists a group's match made, shared by every
 * filter of the group (a block of 36,000 logs to 1,000 filters is 1,000 references, not 36 million).
 */
type LogFilterEntry = FilterBase & { kind: 'logs'; items: (readonly FilterLog[])[]; criteria: LogCriteria; query: unknown; group: string };
export type Filter = HashFilter | LogFilterEntry;

/** A chain event as the filters take it, numbered. */
type Event =
  | { readonly seq: number; readonly kind: 'sealed'; readonly block: MinedBlock }
  | { readonly seq: number; readonly kind: 'removed'; readonly blocks: readonly MinedBlock[] }
  | { readonly seq: number; readonly kind: 'pooled'; readonly hashes: readonly Uint8Array[] };

/** What the filter methods use: the whole store, or one key's view of it (EthFilters.of). */
export type FilterStore = Pick<EthFilters, 'newBlockFilter' | 'newPendingTransactionFilter' | 'newLogFilter' | 'changes' | 'logQuery' | 'uninstall'>;

/** FanOut work of looking at one filter while choosing which to drop for a budget (budget.grew). */
const DROP_LOOK_WORK = 16;

/** geth's: a filter not polled for 5 minutes is removed. */
export const FILTER_IDLE_MS = 5 * 60_000;

export class FilterNotFound extends DevgateError {
  override name = 'FilterNotFound';
  constructor() {
    super('filter not found');
  }
}

export class EthFilters {
  /**
   * In the order they were last polled (or made), the least recently polled first: a sweep stops at the first filter
   * not idle, so it costs the filters it removes, not all of them (a full sweep per call made 10,000 filters take
   * O(n^2): ~10 s a batch of 1,000 eth_newBlockFilter near 10,000 under load).
   */
  private readonly filters = new Map<bigint, Filter>();
  /** Log filters by their criteria: one match per block serves every filter of a group. */
  private readonly groups = new Map<string, Set<LogFilterEntry>>();
  private readonly budget: FilterBudget<Filter>;
  private readonly fan: FanOut<Event>;
  private seq = 0;
  private nextId = 1n;
  private readonly off: (() => void)[];
  private cancelSweep: (() => void) | undefined;

  constructor(
    chain: EthChain,
    private readonly clock: Clock,
    private readonly idleMs = FILTER_IDLE_MS,
    limits: () => FilterLimits = () => DEFAULT_LIMITS,
  ) {
    this.budget = new FilterBudget(limits, (f) => this.remove(f));
    this.fan = new FanOut((e) => this.deliver(e));
    this.off = [
      // A block of many logs is matched after pending I/O, not in the seal's turn.
      chain.events.on('blockSealed', (block) => this.fan.push({ seq: ++this.seq, kind: 'sealed', block }, this.groups.size > 0 && manyLogs([block]))),
      chain.events.on('blocksRemoved', (blocks) => this.fan.push({ seq: ++this.seq, kind: 'removed', blocks }, this.groups.size > 0 && manyLogs(blocks))),
      chain.events.on('txPooled', (txs) => this.fan.push({ seq: ++this.seq, kind: 'pooled', hashes: txs.map((p) => p.tx.hash()) })),
    ];
  }

  /** One key's view: its own filters only, at most `origin.maxFilters` of them. */
  of(origin: CallOrigin): FilterStore {
    return {
      newBlockFilter: () => this.newBlockFilter(origin),
      newPendingTransactionFilter: () => this.newPendingTransactionFilter(origin),
      newLogFilter: (criteria, query) => this.newLogFilter(criteria, query, origin),
      changes: (id) => this.changes(id, origin),
      logQuery: (id) => this.logQuery(id, origin),
      uninstall: (id) => this.uninstall(id, origin),
    };
  }

  newBlockFilter(origin?: CallOrigin): bigint {
    return this.add((base) => ({ ...base, kind: 'blocks', items: [] }), origin);
  }

  newPendingTransactionFilter(origin?: CallOrigin): bigint {
    return this.add((base) => ({ ...base, kind: 'pendingTransactions', items: [] }), origin);
  }

  /** A log filter; `query` is kept as given, for eth_getFilterLogs. */
  newLogFilter(criteria: LogCriteria, query: unknown, origin?: CallOrigin): bigint {
    return this.add((base) => ({ ...base, kind: 'logs', items: [], criteria, query, group: criteriaKey(criteria) }), origin);
  }

  /**
   * What happened since the last poll (and empties the buffer). Events the fan-out has not brought to this filter yet
   * come first: the poll takes them itself, yielding by work done as the fan-out does (a filter behind on blocks of
   * 36,000 logs each is not caught up in one turn).
   */
  async changes(id: bigint, origin?: CallOrigin): Promise<FilterChanges> {
    const f = this.get(id, origin);
    this.polled(f);
    let work = 0;
    // A copy: the fan-out goes on with the queue while this poll waits its turn.
    for (const e of [...this.fan.pending]) {
      if (e.seq <= f.seen) continue;
      if (f.kind === 'logs') for (const block of eventBlocks(e)) await blockLogIndexSliced(block);
      if (!this.filters.has(f.id)) break;
      // Taken by the fan-out meanwhile.
      if (e.seq <= f.seen) continue;
      if (f.kind === 'logs' && e.kind !== 'pooled') {
        // Matched a slice of logs at a time, as the fan-out matches (the work of looking counted as it goes).
        const taken = await eventLogsSliced(e, f.criteria, (w) => {
          if ((work += w) < FAN_OUT_SLICE) return undefined;
          work = 0;
          return slicePause();
        });
        if (!this.filters.has(f.id)) break;
        if (e.seq <= f.seen) continue;
        work += LOOK_WORK + 32 * taken.logs.length + DROP_LOOK_WORK * this.takeLogs(f, taken, e.seq);
      } else work += this.take(f, e);
      if (work >= FAN_OUT_SLICE) {
        work = 0;
        const pause = slicePause();
        if (pause !== undefined) await pause;
      }
    }
    if (!this.filters.has(f.id)) throw new FilterNotFound();
    const items = f.items.splice(0);
    this.budget.emptied(f);
    return f.kind === 'logs' ? { kind: 'logs', logs: (items as FilterLog[][]).flat() } : { kind: f.kind, hashes: items as Uint8Array[] };
  }

  /** The query a log filter was made with (eth_getFilterLogs answers it as eth_getLogs would). */
  logQuery(id: bigint, origin?: CallOrigin): unknown {
    const f = this.get(id, origin);
    if (f.kind !== 'logs') throw new FilterNotFound();
    this.polled(f);
    return f.query;
  }

  uninstall(id: bigint, origin?: CallOrigin): boolean {
    this.sweep();
    const f = this.filters.get(id);
    if (f === undefined || !visible(f, origin)) return false;
    this.remove(f);
    return true;
  }

  /** Filters one key holds (on this network). */
  countOf(key: string): number {
    return this.budget.countOf(key);
  }

  /** Bytes the filters buffer: of one key, or of all. */
  bytesOf(key?: string): number {
    return this.budget.bytesOf(key);
  }

  get size(): number {
    return this.filters.size;
  }

  close(): void {
    for (const off of this.off) off();
    this.fan.close();
    this.cancelSweep?.();
    for (const f of [...this.filters.values()]) this.remove(f);
  }

  private add(make: (base: FilterBase) => Filter, origin: CallOrigin | undefined): bigint {
    this.sweep();
    const owner = origin?.key ?? '';
    if (origin !== undefined) {
      const held = this.countOf(owner);
      if (held >= origin.maxFilters) {
        throw new LimitExceeded(
          `too many filters for this key (at most ${origin.maxFilters}); uninstall some with eth_uninstallFilter or let them expire (5 minutes unpolled)`,
          { limit: origin.maxFilters },
        );
      }
    }
    // A full network makes room: the least recently polled filter of the key holding the most goes.
    this.budget.makeRoom(this.filters.size);
    const f = make({ id: this.nextId++, owner, lastPoll: this.clock.now(), seen: this.seq, bytes: 0 });
    this.filters.set(f.id, f);
    this.budget.added(f);
    if (f.kind === 'logs') {
      let group = this.groups.get(f.group);
      if (group === undefined) this.groups.set(f.group, (group = new Set()));
      group.add(f);
    }
    this.scheduleSweep();
    return f.id;
  }

  private get(id: bigint, origin: CallOrigin | undefined): Filter {
    this.sweep();
    const f = this.filters.get(id);
    if (f === undefined || !visible(f, origin)) throw new FilterNotFound();
    return f;
  }

  private remove(f: Filter): void {
    if (!this.filters.delete(f.id)) return;
    this.budget.removed(f);
    f.items.length = 0;
    if (f.kind === 'logs') {
      const group = this.groups.get(f.group);
      group?.delete(f);
      if (group?.size === 0) this.groups.delete(f.group);
    }
  }

  /** The filter was polled now: it goes last in the poll order (of the network and of its key). */
  private polled(f: Filter): void {
    f.lastPoll = this.clock.now();
    this.filters.delete(f.id);
    this.filters.set(f.id, f);
    this.budget.polled(f);
  }

  /**
   * Removes filters idle past the limit: from the least recently polled on, up to the first that is not idle. (A
   * clock set back can leave a later filter with an older time; it then goes once those before it do.)
   */
  private sweep(): void {
    const now = this.clock.now();
    for (const f of this.filters.values()) {
      if (now - f.lastPoll < this.idleMs) break;
      this.remove(f);
    }
  }

  private scheduleSweep(): void {
    if (this.cancelSweep !== undefined) return;
    this.cancelSweep = setClockTimer(this.clock, this.idleMs, () => {
      this.cancelSweep = undefined;
      this.sweep();
      if (this.filters.size > 0) this.scheduleSweep();
    });
  }

  /** One event to every filter that has not taken it, log filters a criteria group at a time, yielding by work done. */
  private async deliver(e: Event): Promise<void> {
    if (e.kind === 'pooled' || e.kind === 'sealed') {
      const kind = e.kind === 'pooled' ? 'pendingTransactions' : 'blocks';
      for (const f of this.filters.values()) {
        if (f.kind !== kind || f.seen >= e.seq) continue;
        const pause = this.fan.spend(this.take(f, e));
        if (pause !== undefined) await pause;
      }
    }
    if (e.kind === 'pooled' || this.groups.size === 0) return;
    // The blocks' log indexes, built a slice at a time before any group is matched.
    for (const block of eventBlocks(e)) await blockLogIndexSliced(block);
    for (const group of this.groups.values()) {
      let taken: Taken | undefined;
      for (const f of group) {
        if (f.seen >= e.seq) continue;
        let pause: Promise<void> | undefined;
        if (taken === undefined) {
          // Matched once for the group (the list each of its filters takes), a slice of logs at a time; the logs looked
          // at count, matched or not (a group that takes nothing of a 36,000-log block still looked at every log).
          taken = await eventLogsSliced(e, f.criteria, (work) => this.fan.spend(work));
          // A filter may have gone while the group was matched.
          if (!this.filters.has(f.id) || f.seen >= e.seq) continue;
          pause = this.fan.spend(32 * taken.logs.length);
        }
        const dropWork = this.takeLogs(f, taken, e.seq);
        if (pause !== undefined) await pause;
        pause = this.fan.spend(LOOK_WORK + DROP_LOOK_WORK * dropWork);
        if (pause !== undefined) await pause;
      }
    }
  }

  /**
   * One event to one filter that takes no logs of it (a block or pending transaction filter, or a log filter and
   * pending transactions); answers the work done, in FanOut units. Logs are taken a slice at a time (eventLogsSliced).
   */
  private take(f: Filter, e: Event): number {
    let dropWork = 0;
    if (f.kind === 'blocks' && e.kind === 'sealed') dropWork = this.takeHashes(f, [e.block.hash], e.seq);
    else if (f.kind === 'pendingTransactions' && e.kind === 'pooled') dropWork = this.takeHashes(f, e.hashes, e.seq);
    else f.seen = e.seq;
    return LOOK_WORK + 32 * (e.kind === 'pooled' ? e.hashes.length : 1) + DROP_LOOK_WORK * dropWork;
  }

  private takeHashes(f: HashFilter, hashes: readonly Uint8Array[], seq: number): number {
    f.seen = seq;
    if (hashes.length === 0 || !this.budget.fits(f, hashes.length * HASH_BYTES)) return 0;
    for (const h of hashes) f.items.push(h);
    return this.budget.grew(f, hashes.length * HASH_BYTES);
  }

  /** Answers the work done beyond the take itself: filters looked at to drop some (budget.grew). */
  private takeLogs(f: LogFilterEntry, taken: Taken, seq: number): number {
    f.seen = seq;
    if (taken.logs.length === 0 || !this.budget.fits(f, taken.bytes)) return 0;
    f.items.push(taken.logs);
    return this.budget.grew(f, taken.bytes);
  }
}

/** What a log filter takes of an event, with the bytes its buffer grows by (as a poll answers them). */
type Taken = Matched & { readonly bytes: number };

/**
 * The logs an event brings a log filter (those of the sealed block, or again, removed, those of the blocks that left),
 * matched a slice of logs at a time, the work of looking spent with `spend` (sharedLogs.ts).
 */
async function eventLogsSliced(e: Event, criteria: LogCriteria, spend: (work: number) => Promise<void> | undefined): Promise<Taken> {
  const logs: FilterLog[] = [];
  let looked = 0;
  for (const b of eventBlocks(e)) {
    const m = await matchingLogsSliced(b, criteria, e.kind === 'removed', spend);
    for (const l of m.logs) logs.push(l);
    looked += m.looked;
  }
  let bytes = 0;
  for (const l of logs) bytes += logBytes(l.log);
  return { logs, looked, bytes };
}

/** The blocks an event brings: the sealed one, or those that left. */
function eventBlocks(e: Event): readonly MinedBlock[] {
  return e.kind === 'sealed' ? [e.block] : e.kind === 'removed' ? e.blocks : [];
}

/** Whether a caller sees a filter: its own key's, or any without a gateway caller. */
function visible(f: Filter, origin: CallOrigin | undefined): boolean {
  return origin === undefined || f.owner === '' || f.owner === origin.key;
}
