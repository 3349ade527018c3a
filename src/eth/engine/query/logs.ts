/**
 * eth_getLogs: the logs of a block range (or one block) that match an address set and topic filters.
 * Blocks are ruled out and logs matched through each block's log index (logIndex.ts), with the filter
 * turned into keys once per query. Over 10,000 results the answer is the suggested range the hosted
 * gateway gives: the longest range from the start whose logs fit (the method turns it into -32005).
 */
import { blockLogIndex, bytesKey } from './logIndex.js';
import type { MinedBlock, StoredLog } from '../chain/types.js';

/** The most logs one query may return. */
export const MAX_LOGS = 10_000;

/** A log filter, decoded. `topics[i]` undefined or empty matches anything at position i. */
export interface LogFilter {
  /** Empty: any address. */
  readonly addresses: readonly Uint8Array[];
  /** Per position: one of these topics (OR); undefined or empty is a wildcard. */
  readonly topics: readonly (readonly Uint8Array[] | undefined)[];
}

/** A matching log with where it sits. */
export interface FoundLog {
  readonly log: StoredLog;
  readonly block: MinedBlock;
  readonly txIndex: number;
  /** Position of the log among all logs of its block, in receipt order. */
  readonly position: number;
}

/** The keys one filter position accepts (any of them). */
interface KeyList {
  readonly keys: readonly string[];
  readonly set: ReadonlySet<string>;
}

/** A filter as index keys (keysOf): undefined means any. */
export interface KeyFilter {
  readonly addresses: KeyList | undefined;
  readonly topics: readonly (KeyList | undefined)[];
}

function keyList(list: readonly Uint8Array[] | undefined): KeyList | undefined {
  if (list === undefined || list.length === 0) return undefined;
  const keys = list.map(bytesKey);
  return { keys, set: new Set(keys) };
}

/** Whether `key` is in the list (most lists hold one key). */
function accepts(list: KeyList, key: string): boolean {
  return list.keys.length === 1 ? list.keys[0] === key : list.set.has(key);
}

/** Whether some key of `wanted` is in `present` (walking the smaller of the two). */
function anyIn(wanted: KeyList, present: ReadonlySet<string> | undefined): boolean {
  if (present === undefined) return false;
  if (wanted.keys.length > present.size) {
    for (const key of present) if (wanted.set.has(key)) return true;
    return false;
  }
  for (const key of wanted.keys) if (present.has(key)) return true;
  return false;
}

/**
 * One filter's match of one block that can stop after some logs and go on later (#25: a filter matched against a
 * block of 36,000 logs looked at all of them in one turn). `step(n)` looks at up to n more logs, appending those that
 * match to `logs` in log order; `looked` counts the logs looked at one by one (0 when the block's index rules the
 * block out), the work a caller that matches many filters counts.
 */
export class BlockScan {
  looked = 0;
  private next = 0;
  private readonly end: number;

  constructor(
    readonly block: MinedBlock,
    private readonly keys: KeyFilter,
    /** Where the matching logs go (a range query's answer so far). */
    readonly logs: FoundLog[] = [],
  ) {
    this.end = ruledOut(block, keys) ? 0 : blockLogIndex(block).logs.length;
  }

  /** Whether every log is looked at (or the block ruled out). */
  get done(): boolean {
    return this.next >= this.end;
  }

  /** Looks at up to `max` more logs; answers how many it looked at. */
  step(max = Number.POSITIVE_INFINITY): number {
    const from = this.next;
    const to = Math.min(this.end, from + max);
    if (to > from) collect(this.block, this.keys, this.logs, from, to);
    this.next = to;
    this.looked += to - from;
    return to - from;
  }
}

/** A filter as index keys, made once for matching many blocks. */
export function keysOf(filter: LogFilter): KeyFilter {
  return { addresses: keyList(filter.addresses), topics: filter.topics.map(keyList) };
}

/** Whether the block's index rules out every log of it for the filter (no log looked at). */
function ruledOut(block: MinedBlock, filter: KeyFilter): boolean {
  const index = blockLogIndex(block);
  const positions = filter.topics.length;
  // geth: a filter with more topic positions than the log has cannot match, wildcards included.
  if (positions > index.maxTopics) return true;
  // Last position first: indexed arguments (a holder) rule out far more blocks than the event or the contract.
  for (let p = positions - 1; p >= 0; p--) {
    const options = filter.topics[p];
    if (options !== undefined && !anyIn(options, index.topicsAt[p])) return true;
  }
  return filter.addresses !== undefined && !anyIn(filter.addresses, index.addresses);
}

/** Appends the matching logs among logs `from` to `to` (exclusive) of one block to `out`, in log order. */
function collect(block: MinedBlock, filter: KeyFilter, out: FoundLog[], from: number, to: number): void {
  const { logs, addressKeys, topicKeys, txIndexes } = blockLogIndex(block);
  const positions = filter.topics.length;
  next: for (let i = from; i < to; i++) {
    if (filter.addresses !== undefined && !accepts(filter.addresses, addressKeys[i]!)) continue;
    const topics = topicKeys[i]!;
    if (positions > topics.length) continue;
    for (let p = 0; p < positions; p++) {
      const options = filter.topics[p];
      if (options !== undefined && !accepts(options, topics[p]!)) continue next;
    }
    out.push({ log: logs[i]!, block, txIndex: txIndexes[i]!, position: i });
  }
}

/** The matching logs of one block, in log order. */
export function blockLogs(block: MinedBlock, filter: LogFilter): FoundLog[] {
  return scanBlockLogs(block, filter).logs;
}

/**
 * The matching logs of one block, and the logs looked at to find them (0 when the block's index rules it out): a
 * filter that matches nothing of a block with 36,000 logs may still look at every one of them. In one piece: a caller
 * that must yield steps a BlockScan.
 */
export function scanBlockLogs(block: MinedBlock, filter: LogFilter): { readonly logs: FoundLog[]; readonly looked: number } {
  const scan = new BlockScan(block, keysOf(filter));
  scan.step();
  return scan;
}

/** The answer of a range query: the logs, or (over the limit) the longest range from its start that fits. */
export type RangeLogs = { readonly logs: FoundLog[] } | { readonly tooMany: { readonly from: bigint; readonly to: bigint; readonly limit: number } };

/** The matching logs of the blocks `blocks` yields (ascending numbers), up to `limit` of them. */
export function rangeLogs(blocks: Iterable<MinedBlock>, filter: LogFilter, limit = MAX_LOGS): RangeLogs {
  const keys = keysOf(filter);
  const logs: FoundLog[] = [];
  let first: bigint | undefined;
  let lastFitting: bigint | undefined;
  for (const block of blocks) {
    first ??= block.number;
    new BlockScan(block, keys, logs).step();
    if (logs.length > limit) return { tooMany: { from: first, to: lastFitting ?? block.number, limit } };
    lastFitting = block.number;
  }
  return { logs };
}
