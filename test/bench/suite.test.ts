/**
 * The test-suite bench's scenario (bench/suite.ts) stays runnable: a reduced run (the one-off tests and two of the
 * snapshot → transfers → ... → revert tests) against devgate in-process through viem's custom() transport, and the
 * scenario refuses a server that answers wrongly (so a faster-but-wrong devgate cannot win the bench).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { custom } from 'viem';
import { runSuite, SuiteError } from '../../bench/suite.js';
import { start, type Gateway } from '../../src/index.js';
import { devSeed } from '../../src/seed/dev.js';

let gw: Gateway;
beforeAll(async () => {
  // The built-in dev network alone (chain id 31337, the dev accounts): what the bench's servers serve at their bare address.
  gw = await start({ port: 0, chains: [devSeed()] });
});
afterAll(() => gw?.stop());

/** The provider, with a hook on each answer, and the filter watch reported ready once eth_newFilter answers. */
function target(tamper: (method: string, result: unknown) => unknown = (_, r) => r) {
  const provider = gw.provider('dev');
  let made = () => {};
  const ready = new Promise<void>((resolve) => (made = resolve));
  const observed = {
    request: async (req: { method: string; params?: readonly unknown[] | object }) => {
      const result = await provider.request(req);
      if (req.method === 'eth_newFilter') made();
      return tamper(req.method, result);
    },
    on: provider.on.bind(provider),
    removeListener: provider.removeListener.bind(provider),
  };
  return { transport: custom(observed, { retryCount: 0 }), watchReady: () => ready };
}

describe('the test-suite bench scenario', () => {
  it('passes against devgate in-process (one-off tests and two tests)', async () => {
    const outcome = await runSuite(target(), { tests: 2 });
    expect(outcome.tests).toBe(2);
  });

  it('fails on a wrong answer: an eth_call that answers a balance off by one', async () => {
    const offByOne = target((method, result) =>
      method === 'eth_call' && typeof result === 'string' && result.length === 66 ? `0x${(BigInt(result) + 1n).toString(16).padStart(64, '0')}` : result,
    );
    await expect(runSuite(offByOne, { tests: 1 })).rejects.toThrow(SuiteError);
  });
});
