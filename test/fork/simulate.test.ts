/**
 * eth_simulateV1 on a fork (docs/fork.md): the state a simulation reads and the fork has not fetched yet is fetched
 * from the upstream, and the simulation answers as the upstream's own at the fork block. Driven with viem's
 * simulateBlocks against a fresh fork (no disk cache) of a second devgate (the small test seed) behind a counting proxy.
 */
import type { PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/index.js';
import type { CountingProxy } from './countingProxy.js';
import { type SmallUpstream, smallUpstream, startFork, tokenAbi, DEV0, TO } from './smallUpstream.js';

let small: SmallUpstream;
let gw: Gateway;
let proxy: CountingProxy;
let upstream: PublicClient;
let fork: PublicClient;
let forkBlock: bigint;
let token: `0x${string}`;

beforeAll(async () => {
  small = await smallUpstream();
  ({ proxy, token, upstream, forkBlock } = small);
  const forked = await startFork(small);
  gw = forked.gw;
  fork = forked.client;
});
afterAll(async () => {
  await gw?.stop();
  await small?.stop();
});

describe('eth_simulateV1 on a fork', () => {
  it('fetches what it reads and answers as the upstream does at the fork block', async () => {
    proxy.seen.length = 0;
    const blocks = (blockNumber: bigint | undefined) => ({
      ...(blockNumber === undefined ? {} : { blockNumber }),
      blocks: [
        {
          calls: [
            { account: DEV0, to: token, abi: tokenAbi, functionName: 'transfer', args: [TO, 3n] },
            { to: token, abi: tokenAbi, functionName: 'balanceOf', args: [TO] },
            { to: token, abi: tokenAbi, functionName: 'balanceOf', args: [DEV0] },
          ],
        },
      ],
    });
    const [forked] = await fork.simulateBlocks(blocks(undefined) as never);
    const [upstreamAnswer] = await upstream.simulateBlocks(blocks(forkBlock) as never);
    // The token's account, code and the two balance slots were not fetched before: the simulation asked for them.
    expect(proxy.seen).toContain('eth_getProof');
    expect(proxy.seen).toContain('eth_getCode');
    const calls = (b: typeof forked) => b!.calls.map((c) => ({ status: c.status, data: c.data, gasUsed: c.gasUsed, logs: c.logs?.length }));
    expect(calls(forked)).toEqual(calls(upstreamAnswer));
    expect(forked!.calls[1]!.result).toBe(3n);
    expect(forked!.number).toBe(forkBlock + 1n);

    // Again: everything is fetched now, nothing is asked.
    proxy.seen.length = 0;
    const [again] = await fork.simulateBlocks(blocks(undefined) as never);
    expect(calls(again)).toEqual(calls(forked));
    expect(proxy.seen).toEqual([]);
  });
});
