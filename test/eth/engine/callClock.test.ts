/**
 * Long EVM work does not hold the event loop: a looping eth_call yields every few milliseconds (evm/callClock.ts),
 * times out by its own EVM time alike alone or beside others, and a cheap request is answered meanwhile.
 */
import { hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../src/eth/engine/chain/chain.js';
import { callAt } from '../../../src/eth/engine/exec/call.js';
import { estimateGasAt } from '../../../src/eth/engine/exec/estimate.js';
import { start, type Gateway } from '../../../src/index.js';
import { loadSeedFile } from '../../../src/seed/load.js';
import { post } from '../../support/http.js';

const LOOP = hexToBytes('0x5b600056');
let chain: EthChain;
let gw: Gateway;

beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
});
afterAll(() => gw.stop());

/** The longest gap between timer ticks while `work` runs (ms). */
async function longestStall(work: Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  let done = false;
  const settled = work.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await new Promise((r) => setTimeout(r, 1));
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }
  await settled;
  return worst;
}

describe('the call clock', () => {
  it('a looping call times out by its own EVM time, and the event loop keeps turning meanwhile', async () => {
    const call = callAt(chain, chain.head(), { data: LOOP, gas: 10_000_000_000n }, 300);
    const stall = await longestStall(call);
    await expect(call).rejects.toThrow('execution aborted (timeout = 0.3s)');
    expect(stall).toBeLessThan(150);
  });

  it('two looping calls side by side time out alike (their own time, not the time they waited)', async () => {
    const t0 = performance.now();
    const calls = [0, 1].map((i) =>
      callAt(chain, chain.head(), { data: new Uint8Array([...LOOP, i]), gas: 10_000_000_000n }, 300).catch((e: Error) => e.message),
    );
    expect(await Promise.all(calls)).toEqual(['execution aborted (timeout = 0.3s)', 'execution aborted (timeout = 0.3s)']);
    expect(performance.now() - t0).toBeGreaterThan(550);
  });

  it('an estimate of a long loop yields too, and answers as before', async () => {
    const gas = estimateGasAt(chain, chain.head(), { data: LOOP, gas: 2_000_000n });
    const stall = await longestStall(gas);
    await expect(gas).rejects.toThrow(/gas required exceeds allowance|out of gas/);
    expect(stall).toBeLessThan(150);
  });

  it('over HTTP (server in this process): while looping calls run, the event loop never stalls long and eth_blockNumber answers', async () => {
    const url = gw.url('sepolia');
    const loops = Promise.all(
      [0, 1].map((i) => post(url, { jsonrpc: '2.0', id: i, method: 'eth_call', params: [{ data: `0x5b6000560${i}`, gas: '0x5f5e100' }, 'latest'] })),
    );
    const cheap: number[] = [];
    const asking = (async () => {
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        expect((await post(url, { jsonrpc: '2.0', id: 9, method: 'eth_blockNumber', params: [] })).json.result).toBe('0x28');
        cheap.push(performance.now() - t0);
      }
    })();
    const stall = await longestStall(Promise.all([loops, asking]));
    expect(stall).toBeLessThan(150);
    expect(Math.max(...cheap)).toBeLessThan(250);
    for (const r of await loops) expect(r.json.error.message).toMatch(/out of gas/);
  });
});
