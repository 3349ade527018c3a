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
import { turnsDuring } from '../../../support/turns.js';

const LOOP = hexToBytes('0x5b600056');
/**
 * Event-loop turns (setImmediate, no clock read) a yielding call gives at least: work that never yields gets one or
 * two. Counted turns hold on a loaded machine, where the gaps between timer ticks did not (a deschedule stretched one).
 */
const MIN_TURNS = 10;
let chain: EthChain;
let gw: Gateway;

beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
});
afterAll(() => gw.stop());

describe('the call clock', () => {
  it('a looping call times out by its own EVM time, and the event loop keeps turning meanwhile', async () => {
    const { value, turns } = await turnsDuring(() => callAt(chain, chain.head(), { data: LOOP, gas: 10_000_000_000n }, 300).catch((e: Error) => e));
    expect((value as Error).message).toBe('execution aborted (timeout = 0.3s)');
    // A yield every millisecond of EVM work: ~300 turns alone, fewer when the process is descheduled mid-slice; a call
    // that never yields gets one or two (around its awaits), however loaded the machine is.
    expect(turns).toBeGreaterThanOrEqual(MIN_TURNS);
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
    const { value, turns } = await turnsDuring(() => estimateGasAt(chain, chain.head(), { data: LOOP, gas: 2_000_000n }).catch((e: Error) => e));
    expect((value as Error).message).toMatch(/gas required exceeds allowance|out of gas/);
    expect(turns).toBeGreaterThanOrEqual(MIN_TURNS);
  });

  it('over HTTP (server in this process): eth_blockNumber is answered while looping calls run', async () => {
    const url = gw.url('sepolia');
    const loops = Promise.all(
      [0, 1].map((i) => post(url, { jsonrpc: '2.0', id: i, method: 'eth_call', params: [{ data: `0x5b6000560${i}`, gas: '0x1c9c380' }, 'latest'] })),
    );
    let looping = true;
    void loops.finally(() => (looping = false));
    // Cheap requests one after the other, counting those answered while the loops still ran: a load that slows the
    // loops slows these alike, so the count holds on a busy machine; an EVM that held the event loop answers none.
    let during = 0;
    for (let i = 0; i < 20 && looping; i++) {
      expect((await post(url, { jsonrpc: '2.0', id: 9, method: 'eth_blockNumber', params: [] })).json.result).toBe('0x28');
      if (looping) during++;
    }
    expect(during).toBeGreaterThanOrEqual(3);
    // The loops end out of gas; on a loaded machine (the whole folder at load ~6) their own 5 s clock may end them
    // first. Either is an answer; what this case checks is the count above.
    for (const r of await loops) expect(r.json.error.message).toMatch(/^(out of gas|execution aborted \(timeout = 5s\))$/);
  });
});
