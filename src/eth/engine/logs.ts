/**
 * eth_getLogs: the logs of a block range (or one block) that match an address set and topic filters,
 * skipping blocks whose bloom rules them out. Over 10,000 results the answer is the suggested range the
 * hosted gateway gives: the longest range from the start whose logs fit (the method turns it into -32005).
 */
import { Bloom } from '@ethereumjs/vm';
import { equalsBytes } from '@ethereumjs/util';
import type { MinedBlock, StoredLog } from './types.js';

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
}

/** Whether one log matches the filter. */
export function logMatches(log: StoredLog, filter: LogFilter): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => equalsBytes(a, log.address.bytes))) return false;
  if (filter.topics.length > log.topics.length) {
    // geth: a filter with more topic positions than the log has cannot match, wildcards included.
    return false;
  }
  return filter.topics.every((options, i) => options === undefined || options.length === 0 || options.some((t) => equalsBytes(t, log.topics[i]!)));
}

/** Whether the block's bloom may hold a matching log (false means it certainly does not). */
export function bloomMayMatch(block: MinedBlock, filter: LogFilter): boolean {
  const bloom = new Bloom(block.block.header.logsBloom);
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => bloom.check(a))) return false;
  return filter.topics.every((options) => options === undefined || options.length === 0 || options.some((t) => bloom.check(t)));
}

/** The matching logs of one block, in log order. */
export function blockLogs(block: MinedBlock, filter: LogFilter): FoundLog[] {
  const out: FoundLog[] = [];
  if (!bloomMayMatch(block, filter)) return out;
  block.receipts.forEach((receipt, txIndex) => {
    for (const log of receipt.logs) if (logMatches(log, filter)) out.push({ log, block, txIndex });
  });
  return out;
}

/** The answer of a range query: the logs, or (over the limit) the longest range from its start that fits. */
export type RangeLogs = { readonly logs: FoundLog[] } | { readonly tooMany: { readonly from: bigint; readonly to: bigint; readonly limit: number } };

/** The matching logs of the blocks `blocks` yields (ascending numbers), up to `limit` of them. */
export function rangeLogs(blocks: Iterable<MinedBlock>, filter: LogFilter, limit = MAX_LOGS): RangeLogs {
  const logs: FoundLog[] = [];
  let first: bigint | undefined;
  let lastFitting: bigint | undefined;
  for (const block of blocks) {
    first ??= block.number;
    const found = blockLogs(block, filter);
    if (logs.length + found.length > limit) return { tooMany: { from: first, to: lastFitting ?? block.number, limit } };
    logs.push(...found);
    lastFitting = block.number;
  }
  return { logs };
}
