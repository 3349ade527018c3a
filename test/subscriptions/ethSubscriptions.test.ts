/** The subscription and filter stores over an engine: they unhook from the chain's events when closed. */
import { nodeOf } from '../support/node.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../src/eth/engine/chain/chain.js';
import { ManualClock } from '../../src/clock.js';
import { loadSeedFile } from '../../src/seed/load.js';
import { EthFilters } from '../../src/subscriptions/ethFilters.js';
import { EthSubscriptions } from '../../src/subscriptions/ethSubscriptions.js';
import type { MinedBlock, StoredLog, StoredReceipt } from '../../src/eth/engine/chain/types.js';
import { Address } from '@ethereumjs/util';

let chain: EthChain;
beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
});

describe('stores fed by engine events', () => {
  it('a closed connection or filter store leaves no listener behind', async () => {
    const before = ['blockSealed', 'blocksRemoved', 'txPooled'].map((e) => chain.events.count(e as never));
    const pushed: string[] = [];
    const subs = new EthSubscriptions(chain, (t) => pushed.push(t), 2);
    const filters = new EthFilters(chain, new ManualClock(0));
    subs.subscribe(['newHeads']);
    subs.subscribe(['logs', {}]);
    expect(() => subs.subscribe(['newHeads'])).toThrow(/too many subscriptions/);
    await nodeOf(chain).mineBlock();
    expect(pushed.some((t) => t.includes('"eth_subscription"'))).toBe(true);
    subs.close();
    filters.close();
    expect(['blockSealed', 'blocksRemoved', 'txPooled'].map((e) => chain.events.count(e as never))).toEqual(before);
    const n = pushed.length;
    await nodeOf(chain).mineBlock();
    expect(pushed).toHaveLength(n);
  });
});

describe('a block of many logs', () => {
  /** The head block, as if it held one transaction of `n` LOG0s of one address. */
  function blockOfLogs(n: number): MinedBlock {
    const head = chain.head();
    const address = new Address(new Uint8Array(20).fill(0xaa));
    const logs: StoredLog[] = Array.from({ length: n }, (_, logIndex) => ({ address, topics: [], data: new Uint8Array(0), logIndex }));
    const receipt: StoredReceipt = { cumulativeGasUsed: 0n, gasUsed: 0n, effectiveGasPrice: 0n, logsBloom: new Uint8Array(256), logs, status: 1 };
    return { ...head, txHashes: [new Uint8Array(32).fill(1)], receipts: [receipt] };
  }

  it("is fanned out after pending I/O, not in the seal's turn", async () => {
    // #25: the block's log index (up to 2,000 logs) and a first 64 KB of notifications (32 here) ran in the emitter's
    // turn, the block's seal, which is long enough with thousands of logs; a filter group's index and match too.
    const pushed: string[] = [];
    const subs = new EthSubscriptions(chain, (t) => pushed.push(t));
    const filters = new EthFilters(chain, new ManualClock(0));
    try {
      subs.subscribe(['logs', {}]);
      const id = filters.newLogFilter({ filter: { addresses: [], topics: [] } }, {});
      chain.events.emit('blockSealed', blockOfLogs(1000));
      // The rest of the emitter's turn: its promise jobs, no macrotask.
      for (let i = 0; i < 100; i++) await Promise.resolve();
      expect(pushed).toHaveLength(0);
      while (pushed.length < 1000) await new Promise((r) => setImmediate(r));
      expect(pushed).toHaveLength(1000);
      // The filter takes the same logs, matched after the seal's turn too.
      const changes = await filters.changes(id);
      expect(changes.kind === 'logs' && changes.logs.length).toBe(1000);
    } finally {
      subs.close();
      filters.close();
    }
  });
});
