/**
 * Long EVM work does not hold the event loop: a looping eth_call yields every few milliseconds (evm/callClock.ts),
 * times out by its own EVM time alike alone or beside others, and a cheap request is answered meanwhile.
 */
import { hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { callAt } from '../../../../src/eth/engine/exec/call.js';
import { estimateGasAt } from '../../../../src/eth/engine/exec/estimate.js';
import { start, type Gateway } from '../../../../src/index.js';
import { loadSeedFile } from '../../../../src/seed/load.js';
import { post } from '../../../support/http.js';
import { expectYielded, quantile, watchTurns } from '../../../support/turns.js';

const LOOP = hexToBytes('0x5b600056');
let chain: EthChain;
let gw: Gateway;

beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
});
afterAll(() => gw.stop());

describe('the call clock', () => {
  it('a looping call times out by its own EVM time, and the event loop keeps turning meanwhile', async () => {
    const call = callAt(chain, chain.head(), { data: LOOP, gas: 10_000_000_000n }, 300);
    const turns = await watchTurns(call);
    await expect(call).rejects.toThrow('execution aborted (timeout = 0.3s)');
    expectYielded(turns);
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
    const turns = await watchTurns(gas);
    await expect(gas).rejects.toThrow(/gas required exceeds allowance|out of gas/);
    expectYielded(turns);
  });

  it('over HTTP (server in this process): while looping calls run, the event loop never stalls long and eth_blockNumber answers', async () => {
    const url = gw.url('sepolia');
    const loops = Promise.all(
      [0, 1].map((i) => post(url, { jsonrpc: '2.0', id: i, method: 'eth_call', params: [{ data: `0x5b6000560${i}`, gas: '0x1c9c380' }, 'latest'] })),
    );
    const cheap: number[] = [];
    const asking = (async () => {
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        expect((await post(url, { jsonrpc: '2.0', id: 9, method: 'eth_blockNumber', params: [] })).json.result).toBe('0x28');
        cheap.push(performance.now() - t0);
      }
    })();
    expectYielded(await watchTurns(Promise.all([loops, asking])));
    // The median, not the maximum: the machine is shared, and a busy neighbour can delay any one answer.
    expect(quantile(cheap, 0.5)).toBeLessThan(100);
    for (const r of await loops) expect(r.json.error.message).toMatch(/out of gas/);
  });
});
