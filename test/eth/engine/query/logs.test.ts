/**
 * The indexed log search (rangeLogs, blockLogs over each block's log index) against a plain scan of every
 * receipt's logs, on random blocks and random filters: address sets, topic ORs, wildcards (null and
 * empty), more topic positions than the logs have, ranges with and without matches, and the limit path.
 */
import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { BlockScan, blockLogs, keysOf, rangeLogs, type LogFilter } from '../../../../src/eth/engine/query/logs.js';
import type { MinedBlock, StoredLog, StoredReceipt } from '../../../../src/eth/engine/chain/types.js';
import { prng } from '../../../support/prng.js';

const rand = prng(42);
const int = (n: number) => Math.floor(rand() * n);
const bytes = (length: number, tag: number) => Uint8Array.from({ length }, (_, i) => (tag * 31 + i * 7) & 0xff);
/** Small pools so filters hit often; the last entry of each never occurs in a log. */
const ADDRESSES = Array.from({ length: 5 }, (_, i) => bytes(20, i + 1));
const TOPICS = Array.from({ length: 7 }, (_, i) => bytes(32, i + 100));

function randomBlock(number: number): MinedBlock {
  let logIndex = 0;
  const receipts = Array.from({ length: int(5) }, (): StoredReceipt => {
    const logs = Array.from(
      { length: int(4) },
      (): StoredLog => ({
        address: new Address(ADDRESSES[int(ADDRESSES.length - 1)]!),
        topics: Array.from({ length: int(5) }, () => TOPICS[int(TOPICS.length - 1)]!),
        data: bytes(int(3) * 32, number),
        logIndex: logIndex++,
      }),
    );
    return { status: 1, cumulativeGasUsed: 0n, gasUsed: 0n, effectiveGasPrice: 0n, logsBloom: new Uint8Array(256), logs };
  });
  return {
    number: BigInt(number),
    hash: bytes(32, number),
    totalDifficulty: 0n,
    senders: [],
    receipts,
    block: undefined as never,
    header: undefined as never,
    txHashes: [],
  };
}

const pickSome = <T>(pool: readonly T[], max: number): T[] => Array.from({ length: int(max + 1) }, () => pool[int(pool.length)]!);

function randomFilter(): LogFilter {
  const topics = Array.from({ length: int(6) }, () => {
    const r = rand();
    if (r < 0.3) return undefined;
    if (r < 0.4) return [];
    return pickSome(TOPICS, 3).concat([TOPICS[int(TOPICS.length)]!]);
  });
  return { addresses: rand() < 0.3 ? [] : pickSome(ADDRESSES, 2).concat([ADDRESSES[int(ADDRESSES.length)]!]), topics };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

/** The reference: geth's matching rule on every log of every receipt, no index. */
function plainMatches(log: StoredLog, filter: LogFilter): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => same(a, log.address.bytes))) return false;
  if (filter.topics.length > log.topics.length) return false;
  return filter.topics.every((options, i) => options === undefined || options.length === 0 || options.some((t) => same(t, log.topics[i]!)));
}

function plainBlock(block: MinedBlock, filter: LogFilter) {
  const out: Found[] = [];
  let position = 0;
  block.receipts.forEach((receipt, txIndex) => {
    for (const log of receipt.logs) {
      if (plainMatches(log, filter)) out.push({ log, block, txIndex, position });
      position++;
    }
  });
  return out;
}

function plainRange(blocks: MinedBlock[], filter: LogFilter, limit: number): { logs: Found[] } | { tooMany: { from: bigint; to: bigint; limit: number } } {
  const logs: Found[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const found = plainBlock(blocks[i]!, filter);
    if (logs.length + found.length > limit) return { tooMany: { from: blocks[0]!.number, to: i === 0 ? blocks[0]!.number : blocks[i - 1]!.number, limit } };
    logs.push(...found);
  }
  return { logs };
}

type Found = { log: StoredLog; block: MinedBlock; txIndex: number; position: number };
/** A found log as text; marked wrong unless it is the very log at its place. */
const place = (f: Found) => {
  const atPlace = f.block.receipts.flatMap((r) => r.logs)[f.position] === f.log && f.block.receipts[f.txIndex]!.logs.includes(f.log);
  return `${f.block.number}/${f.txIndex}/${f.position}${atPlace ? '' : ' (wrong log)'}`;
};
const summary = (r: { logs: Found[] } | { tooMany: unknown }) => ('logs' in r ? r.logs.map(place) : r);

const chain = Array.from({ length: 60 }, (_, n) => randomBlock(n));

describe('indexed log search', () => {
  it('finds exactly what a plain scan finds, for random filters and ranges', () => {
    let matched = 0;
    let empty = 0;
    for (let k = 0; k < 400; k++) {
      const filter = randomFilter();
      const from = int(chain.length);
      const blocks = chain.slice(from, from + 1 + int(20));
      const expected = plainRange(blocks, filter, Infinity);
      expect(summary(rangeLogs(blocks, filter))).toEqual(summary(expected));
      expect(blockLogs(blocks[0]!, filter).map(place)).toEqual(plainBlock(blocks[0]!, filter).map(place));
      if ('logs' in expected && expected.logs.length > 0) matched++;
      else empty++;
    }
    // The random filters exercise both outcomes.
    expect(matched).toBeGreaterThan(50);
    expect(empty).toBeGreaterThan(50);
  });

  it('a BlockScan stepped a few logs at a time finds what one piece finds, and looks at no more than it is given', () => {
    for (let k = 0; k < 200; k++) {
      const filter = randomFilter();
      const block = chain[int(chain.length)]!;
      const scan = new BlockScan(block, keysOf(filter));
      const step = 1 + int(3);
      let steps = 0;
      while (!scan.done) {
        expect(scan.step(step)).toBeLessThanOrEqual(step);
        steps++;
      }
      expect(scan.step(step)).toBe(0);
      const whole = new BlockScan(block, keysOf(filter));
      whole.step();
      expect(scan.logs.map(place)).toEqual(plainBlock(block, filter).map(place));
      expect(scan.looked).toBe(whole.looked);
      expect(steps).toBe(Math.ceil(scan.looked / step));
    }
  });

  it('wildcards, trailing nulls and more positions than any log has', () => {
    const blocks = chain.slice(0, 30);
    const cases: LogFilter[] = [
      { addresses: [], topics: [] },
      { addresses: [], topics: [undefined, undefined, undefined, undefined] },
      { addresses: [], topics: [[], [], [], [], []] },
      { addresses: [ADDRESSES[0]!], topics: [undefined, [TOPICS[1]!, TOPICS[2]!]] },
      { addresses: ADDRESSES, topics: [TOPICS] },
      { addresses: [ADDRESSES[4]!], topics: [] },
      { addresses: [], topics: [[TOPICS[6]!]] },
    ];
    for (const filter of cases) expect(summary(rangeLogs(blocks, filter))).toEqual(summary(plainRange(blocks, filter, Infinity)));
  });

  it('over the limit, suggests the same range as a plain scan (the first block alone included)', () => {
    const filter: LogFilter = { addresses: [], topics: [] };
    for (const limit of [0, 1, 3, 10, 25, 80]) {
      for (const from of [0, 7, 20]) {
        const blocks = chain.slice(from, from + 30);
        expect(summary(rangeLogs(blocks, filter, limit))).toEqual(summary(plainRange(blocks, filter, limit)));
      }
    }
  });
});
