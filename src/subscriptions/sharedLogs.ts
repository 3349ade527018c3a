/**
 * The logs a log filter takes from a block, as objects shared by every filter that takes them: a block of 36,000
 * logs going to 1,000 filters makes 36,000 objects, not 36 million (a sealed block never changes).
 */
import { createHash } from 'node:crypto';
import type { MinedBlock } from '../eth/engine/chain/types.js';
import { BlockScan, keysOf, type FoundLog, type LogFilter } from '../eth/engine/query/logs.js';
import { LOG_LOOK_WORK } from './fanOut.js';
import { plainHex } from '../hex.js';

/** A log a filter hands out: where it sits, and whether its block left the chain. Shared by every filter that takes it. */
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

const live = new WeakMap<MinedBlock, FilterLog[]>();
const gone = new WeakMap<MinedBlock, FilterLog[]>();
const NONE: readonly FilterLog[] = [];

/** What a log filter takes from a block: the logs, and how many logs were looked at to find them (the work done). */
export interface Matched {
  readonly logs: readonly FilterLog[];
  readonly looked: number;
}

const NOTHING: Matched = { logs: NONE, looked: 0 };

/** Logs a filter looks at in one piece: about a few hundred microseconds of matching (#25). */
export const SCAN_SLICE = 1000;

/**
 * The logs of `block` a log filter's criteria take (removed: the block left the chain), in log order, matched a
 * slice of SCAN_SLICE logs at a time: after each slice it spends LOG_LOOK_WORK per log looked at with
 * `spend` (a FanOut's) and awaits the pause it answers, so matching one filter against a block of 36,000 logs is
 * not one turn. The work of looking is spent here; `looked` is for the caller's information.
 */
export async function matchingLogsSliced(
  block: MinedBlock,
  c: LogCriteria,
  removed: boolean,
  spend: (work: number) => Promise<void> | undefined,
): Promise<Matched> {
  if (c.blockHash !== undefined) return NOTHING;
  if ((c.fromBlock !== undefined && block.number < c.fromBlock) || (c.toBlock !== undefined && block.number > c.toBlock)) return NOTHING;
  const scan = new BlockScan(block, keysOf(c.filter));
  while (!scan.done) {
    const pause = spend(LOG_LOOK_WORK * scan.step(SCAN_SLICE));
    if (pause !== undefined) await pause;
  }
  return { logs: sharedOf(block, scan.logs, removed), looked: scan.looked };
}

/** The shared objects of `found` (logs of `block`). */
function sharedOf(block: MinedBlock, found: readonly FoundLog[], removed: boolean): readonly FilterLog[] {
  if (found.length === 0) return NONE;
  const byBlock = removed ? gone : live;
  let shared = byBlock.get(block);
  if (shared === undefined) byBlock.set(block, (shared = []));
  const out: FilterLog[] = new Array(found.length);
  for (let i = 0; i < found.length; i++) {
    const l = found[i]!;
    out[i] = shared[l.position] ??= { log: l.log, block: l.block, txIndex: l.txIndex, position: l.position, removed };
  }
  return out;
}

const hex = plainHex;

/** A text equal for two criteria exactly when they take the same logs of every block (long ones hashed). */
export function criteriaKey(c: LogCriteria): string {
  const topics = c.filter.topics.map((t) => (t === undefined || t.length === 0 ? '*' : t.map(hex).join(','))).join(';');
  const key = `${c.fromBlock ?? ''}|${c.toBlock ?? ''}|${c.blockHash === undefined ? '' : hex(c.blockHash)}|${c.filter.addresses.map(hex).join(',')}|${topics}`;
  return key.length <= 200 ? key : createHash('sha256').update(key).digest('base64');
}
