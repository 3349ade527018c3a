/**
 * A batch's calls yield to the event loop between them by work done (issue 25: 1,000 eth_sendRawTransaction in one
 * batch held every network for 4.1 s), and the answers keep the batch's order.
 */
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerChecked, checkMessage, success, type RpcCall } from '../../src/rpc/envelope.js';
import { start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';
import { expectYielded, watchTurns } from '../support/turns.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('batches yield between calls', () => {
  it('a batch of 400 calls of 0.5 ms each lets timers run, and answers in order', async () => {
    const batch = Array.from({ length: 400 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'm', params: [] }));
    const execute = async (call: RpcCall) => {
      busy(0.5);
      return success(call.id ?? null, call.id);
    };
    const answering = answerChecked(checkMessage(batch, 1_000), execute);
    const turns = await watchTurns(answering);
    const responses = (await answering) as { id: number }[];
    expect(responses.map((r) => r.id)).toEqual(batch.map((b) => b.id));
    // Without the yields the one stall is the whole batch (200 ms).
    expectYielded(turns);
  });

  describe('over HTTP', () => {
    let gw: Gateway;
    beforeAll(async () => {
      gw = await start({ port: 0, chains: ['chains/sepolia.json', 'chains/mainnet.json'] });
    });
    afterAll(() => gw.stop());

    it("another network's eth_blockNumber answers while a batch of nonce-gap eth_sendRawTransaction runs", async () => {
      // Two senders of 50 each: the pool queues at most 64 nonce-gap transactions per account (geth's AccountQueue).
      const accounts = [
        privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'),
        privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'),
      ];
      const raws = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          accounts[i % 2]!.signTransaction({
            chainId: 11155111,
            type: 'eip1559',
            to: '0x000000000000000000000000000000000000dEaD',
            value: 1n,
            nonce: 1_000 + Math.floor(i / 2),
            gas: 21_000n,
            maxFeePerGas: 100_000_000_000n,
            maxPriorityFeePerGas: 1n,
          }),
        ),
      );
      const batch = raws.map((raw, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_sendRawTransaction', params: [raw] }));
      let done = false;
      const t0 = performance.now();
      const sending = post(gw.url('sepolia'), batch).then((r) => ((done = true), r));
      const waits: number[] = [];
      while (!done) {
        const asked = performance.now();
        await post(gw.url('mainnet'), { jsonrpc: '2.0', id: 'probe', method: 'eth_blockNumber', params: [] });
        waits.push(performance.now() - asked);
        await new Promise((r) => setTimeout(r, 5));
      }
      const answers = (await sending).json as { id: number; result?: string; error?: unknown }[];
      const took = performance.now() - t0;
      expect(answers.map((a) => a.id)).toEqual(batch.map((b) => b.id));
      expect(answers.every((a) => typeof a.result === 'string')).toBe(true);
      waits.sort((a, b) => a - b);
      // The probe waits for at most a call or two, not the batch (~10 ms a call here, 100 ms on a busy machine):
      // relative bounds and a percentile, as the machine is shared and a neighbour can delay any one answer.
      expect(waits.length).toBeGreaterThan(10);
      expect(waits[Math.floor(waits.length * 0.9)]!).toBeLessThan(took / 10);
    });
  });
});
