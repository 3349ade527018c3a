/**
 * Polling filters of an eth network (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter), as
 * geth keeps them: fed by the chain's events, each buffers what happened since it was last polled; one idle for
 * 5 minutes is removed. When blocks leave the chain (a revert or reset), log filters get their logs again with
 * `removed: true`, as a node does on a reorg. Knows nothing of JSON-RPC: the methods format what it hands out.
 *
 * Filters are kept per API key, as the hosted gateway does (a filter id can be polled with the key that made it, from
 * any connection): `of(origin)` is one key's view, which holds at most `origin.maxFilters` filters (-32005 past it)
 * and sees no other key's filter. Without a gateway caller (in-process use) every filter is seen.
 */
import { setClockTimer, type Clock } from '../clock.js';
import { DevgateError, LimitExceeded } from '../errors.js';
import type { CallOrigin } from '../networkTypes.js';
import type { EthChain } from '../eth/engine/chain/chain.js';
import type { MinedBlock } from '../eth/engine/chain/types.js';
import { blockLogs, type FoundLog, type LogFilter } from '../eth/engine/query/logs.js';

/** A log a filter hands out: where it sits, and whether its block left the chain. */
export interface FilterLog extends FoundLog {
  readonly removed: boolean;
}

/** The block range of a log filter: undefined ends are open (latest). */
export interface LogCriteria {
  readonly filter: LogFilter;
  readonly fromBlock?: bigint;
  readonly toBlock?: bigint;
  /** A filter on one block (blockHash): it never sees new logs. */
  readonly blockHash?: Uint8Array;
}

export type FilterChanges =
  | { readonly kind: 'blocks'; readonly hashes: readonly Uint8Array[] }
  | { readonly kind: 'pendingTransactions'; readonly hashes: readonly Uint8Array[] }
  | { readonly kind: 'logs'; readonly logs: readonly FilterLog[] };

type Filter = (
  | { kind: 'blocks'; items: Uint8Array[]; lastPoll: number }
  | { kind: 'pendingTransactions'; items: Uint8Array[]; lastPoll: number }
  | { kind: 'logs'; items: FilterLog[]; lastPoll: number; criteria: LogCriteria; query: unknown }
) & { owner?: string };

/** What the filter methods use: the whole store, or one key's view of it (EthFilters.of). */
export type FilterStore = Pick<EthFilters, 'newBlockFilter' | 'newPendingTransactionFilter' | 'newLogFilter' | 'changes' | 'logQuery' | 'uninstall'>;

/** geth's: a filter not polled for 5 minutes is removed. */
export const FILTER_IDLE_MS = 5 * 60_000;
/** Filters kept per network, and items buffered per filter (the oldest go first past it). */
export const MAX_FILTERS = 10_000;
export const MAX_FILTER_ITEMS = 100_000;

export class FilterNotFound extends DevgateError {
  override name = 'FilterNotFound';
  constructor() {
    super('filter not found');
  }
}

export class EthFilters {
  private readonly filters = new Map<bigint, Filter>();
  /** How many filters each key holds. */
  private readonly owned = new Map<string, number>();
  private nextId = 1n;
  private readonly off: (() => void)[];
  private cancelSweep: (() => void) | undefined;

  constructor(
    chain: EthChain,
    private readonly clock: Clock,
    private readonly idleMs = FILTER_IDLE_MS,
  ) {
    this.off = [
      chain.events.on('blockSealed', (block) => this.sealed(block)),
      chain.events.on('blocksRemoved', (blocks) => this.removed(blocks)),
      chain.events.on('txPooled', (txs) => {
        for (const f of this.filters.values()) if (f.kind === 'pendingTransactions') push(f.items, ...txs.map((p) => p.tx.hash()));
      }),
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
    return this.add({ kind: 'blocks', items: [], lastPoll: this.clock.now() }, origin);
  }

  newPendingTransactionFilter(origin?: CallOrigin): bigint {
    return this.add({ kind: 'pendingTransactions', items: [], lastPoll: this.clock.now() }, origin);
  }

  /** A log filter; `query` is kept as given, for eth_getFilterLogs. */
  newLogFilter(criteria: LogCriteria, query: unknown, origin?: CallOrigin): bigint {
    return this.add({ kind: 'logs', items: [], lastPoll: this.clock.now(), criteria, query }, origin);
  }

  /** What happened since the last poll (and empties the buffer). */
  changes(id: bigint, origin?: CallOrigin): FilterChanges {
    const f = this.get(id, origin);
    f.lastPoll = this.clock.now();
    const items = f.items.splice(0);
    return f.kind === 'logs' ? { kind: 'logs', logs: items as FilterLog[] } : { kind: f.kind, hashes: items as Uint8Array[] };
  }

  /** The query a log filter was made with (eth_getFilterLogs answers it as eth_getLogs would). */
  logQuery(id: bigint, origin?: CallOrigin): unknown {
    const f = this.get(id, origin);
    if (f.kind !== 'logs') throw new FilterNotFound();
    f.lastPoll = this.clock.now();
    return f.query;
  }

  uninstall(id: bigint, origin?: CallOrigin): boolean {
    this.sweep();
    const f = this.filters.get(id);
    if (f === undefined || !visible(f, origin)) return false;
    this.remove(id, f);
    return true;
  }

  /** Filters one key holds (on this network). */
  countOf(key: string): number {
    return this.owned.get(key) ?? 0;
  }

  get size(): number {
    return this.filters.size;
  }

  close(): void {
    for (const off of this.off) off();
    this.cancelSweep?.();
    this.filters.clear();
    this.owned.clear();
  }

  private add(filter: Filter, origin: CallOrigin | undefined): bigint {
    this.sweep();
    if (this.filters.size >= MAX_FILTERS)
      throw new DevgateError(`too many filters (at most ${MAX_FILTERS} per network); uninstall some with eth_uninstallFilter`);
    if (origin !== undefined) {
      const held = this.countOf(origin.key);
      if (held >= origin.maxFilters) {
        throw new LimitExceeded(
          `too many filters for this key (at most ${origin.maxFilters}); uninstall some with eth_uninstallFilter or let them expire (5 minutes unpolled)`,
          { limit: origin.maxFilters },
        );
      }
      filter.owner = origin.key;
      this.owned.set(origin.key, held + 1);
    }
    const id = this.nextId++;
    this.filters.set(id, filter);
    this.scheduleSweep();
    return id;
  }

  private get(id: bigint, origin: CallOrigin | undefined): Filter {
    this.sweep();
    const f = this.filters.get(id);
    if (f === undefined || !visible(f, origin)) throw new FilterNotFound();
    return f;
  }

  private remove(id: bigint, f: Filter): void {
    this.filters.delete(id);
    if (f.owner === undefined) return;
    const left = (this.owned.get(f.owner) ?? 1) - 1;
    if (left <= 0) this.owned.delete(f.owner);
    else this.owned.set(f.owner, left);
  }

  /** Removes filters idle past the limit. */
  private sweep(): void {
    const now = this.clock.now();
    for (const [id, f] of this.filters) if (now - f.lastPoll >= this.idleMs) this.remove(id, f);
  }

  private scheduleSweep(): void {
    if (this.cancelSweep !== undefined) return;
    this.cancelSweep = setClockTimer(this.clock, this.idleMs, () => {
      this.cancelSweep = undefined;
      this.sweep();
      if (this.filters.size > 0) this.scheduleSweep();
    });
  }

  private sealed(block: MinedBlock): void {
    for (const f of this.filters.values()) {
      if (f.kind === 'blocks') push(f.items, block.hash);
      else if (f.kind === 'logs') push(f.items, ...matching(block, f.criteria, false));
    }
  }

  private removed(blocks: readonly MinedBlock[]): void {
    for (const f of this.filters.values()) {
      if (f.kind !== 'logs') continue;
      for (const block of blocks) push(f.items, ...matching(block, f.criteria, true));
    }
  }
}

/** Whether a caller sees a filter: its own key's, or any without a gateway caller. */
function visible(f: Filter, origin: CallOrigin | undefined): boolean {
  return origin === undefined || f.owner === undefined || f.owner === origin.key;
}

/** The logs of `block` a log filter's criteria take. */
function matching(block: MinedBlock, c: LogCriteria, removed: boolean): FilterLog[] {
  if (c.blockHash !== undefined) return [];
  if ((c.fromBlock !== undefined && block.number < c.fromBlock) || (c.toBlock !== undefined && block.number > c.toBlock)) return [];
  return blockLogs(block, c.filter).map((found) => ({ ...found, removed }));
}

function push<T>(items: T[], ...more: T[]): void {
  items.push(...more);
  if (items.length > MAX_FILTER_ITEMS) items.splice(0, items.length - MAX_FILTER_ITEMS);
}
