/** The subscription and filter stores over an engine: they unhook from the chain's events when closed. */
import { nodeOf } from '../support/node.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../src/eth/engine/chain/chain.js';
import { ManualClock } from '../../src/clock.js';
import { loadSeedFile } from '../../src/seed/load.js';
import { EthFilters } from '../../src/subscriptions/ethFilters.js';
import { EthSubscriptions } from '../../src/subscriptions/ethSubscriptions.js';

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
