/**
 * Code that runs yields by work done (issue 25), not by an opcode kind a contract can avoid: a loop that CALLs a
 * 24 KB JUMPDEST sled (given by state override) runs ~24,000 opcodes per JUMP, so a clock that counted jumps held the
 * event loop for the whole call. The fast loop counts executed work (steps, and gas of the heavy opcodes) and yields.
 */
import { createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { callAt } from '../../../../src/eth/engine/exec/call.js';
import { simulate } from '../../../../src/eth/engine/simulate/simulate.js';
import { start, type Gateway } from '../../../../src/index.js';
import { loadSeedFile } from '../../../../src/seed/load.js';
import { post } from '../../../support/http.js';
import { expectYielded, quantile, watchTurns } from '../../../support/turns.js';

const SLED_AT = '0x00000000000000000000000000000000005e1ed0';
const CALLER_AT = '0x00000000000000000000000000000000000ca11e';
/** 24,576 JUMPDESTs, then STOP. */
const SLED = '0x' + '5b'.repeat(24_576) + '00';
/** JUMPDEST; CALL(gas, sled, 0, 0, 0, 0, 0); POP; JUMP to 0: one JUMP per sled run. */
const CALLER = `0x5b600060006000600060007300000000000000000000000000000000005e1ed05af150600056`;

let chain: EthChain;

const sledOverride = () => ({
  state: [
    [createAddressFromString(SLED_AT), { code: hexToBytes(SLED as `0x${string}`) }],
    [createAddressFromString(CALLER_AT), { code: hexToBytes(CALLER as `0x${string}`) }],
  ] as const,
});

beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
});

describe('yield by work done', () => {
  it('an eth_call that CALLs a JUMPDEST sled (few jumps, many steps) lets the event loop turn every few ms', async () => {
    const call = callAt(chain, chain.head(), { to: createAddressFromString(CALLER_AT), gas: 8_000_000n }, 60_000, sledOverride() as never);
    const turns = await watchTurns(call);
    await expect(call).rejects.toThrow(/out of gas/);
    expect(turns.took).toBeGreaterThan(100);
    expectYielded(turns);
  });
});

describe('over HTTP, two networks', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start({ port: 0, chains: ['chains/sepolia.json', 'chains/mainnet.json'] });
  });
  afterAll(() => gw.stop());

  it("another network's eth_blockNumber answers within 100 ms while a sled eth_call runs", async () => {
    const sled = post(gw.url('sepolia'), {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: CALLER_AT, gas: '0x4c4b40' }, 'latest', { [SLED_AT]: { code: SLED }, [CALLER_AT]: { code: CALLER } }],
    });
    let done = false;
    const finished = sled.then((r) => ((done = true), r));
    const waits: number[] = [];
    await new Promise((r) => setTimeout(r, 20));
    while (!done) {
      const t0 = performance.now();
      await post(gw.url('mainnet'), { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] });
      waits.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await finished).json.error.message).toMatch(/out of gas/);
    // Percentiles, not the maximum: the machine is shared, and a busy neighbour can delay any one answer.
    expect(waits.length).toBeGreaterThan(5);
    expect(quantile(waits, 0.9)).toBeLessThan(100);
  });
});

describe('work that runs no opcodes yields too', () => {
  it('eth_simulateV1 of 128 blocks of 9 transfers lets the event loop turn between calls', async () => {
    const from = createAddressFromString('0x00000000000000000000000000000000000000d1');
    const to = createAddressFromString('0x00000000000000000000000000000000000000d2');
    const blocks = Array.from({ length: 128 }, (_, i) => ({
      ...(i === 0 ? { stateOverrides: [[from, { balance: 10n ** 24n }]] as const } : {}),
      calls: Array.from({ length: 9 }, () => ({ from, to, value: 1n })),
    }));
    const sim = simulate(chain, chain.head(), { blocks, traceTransfers: false, validation: false } as never);
    const turns = await watchTurns(sim);
    const result = await sim;
    expect(result).toHaveLength(128);
    expect(result.every((b) => b.calls.every((c) => c.status === 1))).toBe(true);
    expectYielded(turns);
  });

  it('an eth_call with 6,000 overridden accounts lets the event loop turn while they are written', async () => {
    const state = Array.from(
      { length: 6_000 },
      (_, i) => [createAddressFromString('0x' + (0x100000 + i).toString(16).padStart(40, '0')), { balance: 1n, nonce: 1n }] as const,
    );
    const call = callAt(chain, chain.head(), { to: createAddressFromString(CALLER_AT), gas: 100_000n }, 60_000, { state } as never);
    const turns = await watchTurns(call);
    await call;
    expectYielded(turns);
  });

  it('state overrides past their byte budget are refused with -32005 naming it', async () => {
    const code = new Uint8Array(24_576);
    const state = Array.from({ length: 1_400 }, (_, i) => [createAddressFromString('0x' + (0x200000 + i).toString(16).padStart(40, '0')), { code }] as const);
    await expect(callAt(chain, chain.head(), { to: createAddressFromString(CALLER_AT) }, 5_000, { state } as never)).rejects.toThrow(
      /state override too large: \d+ bytes of accounts, code and storage, over the limit of 33554432/,
    );
  });
});
