/**
 * A large log answer is made a slice at a time (#25: a filter poll of a 36,000-log block was one ~390 ms turn, which
 * held every other client): while eth_getFilterChanges and eth_getLogs make 20,000 logs' text, the event loop turns
 * (counted with setImmediate, no clock read), and the answers are the whole lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, start } from '../../../../src/index.js';
import { turnsDuring } from '../../../support/turns.js';

let gw: Gateway;
const LOGS = 20_000;
// The init code of a loop of LOGS LOG0s of no data: PUSH2 n; JUMPDEST; PUSH1 0; PUSH1 0; LOG0; PUSH1 1; SWAP1; SUB;
// DUP1; PUSH1 3; JUMPI; STOP.
const LOG_LOOP = `0x61${LOGS.toString(16).padStart(4, '0')}5b60006000a0600190038060035700`;

async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const answer = (await gw.provider('dev').request({ method, params })) as unknown;
  return answer;
}

beforeAll(async () => {
  gw = await start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } }], dev: {}, bare: 'dev' });
});
afterAll(() => gw?.stop());

describe('large log answers', () => {
  it('a filter poll and eth_getLogs of a 20,000-log block let the event loop turn while their text is made', async () => {
    const filter = await rpc('eth_newFilter', [{}]);
    const [from] = (await rpc('eth_accounts')) as string[];
    const hash = await rpc('eth_sendTransaction', [{ from, data: LOG_LOOP, gas: '0xe4e1c0' }]);
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { status: string; logs: unknown[]; blockHash: string };
    expect(receipt.status).toBe('0x1');
    expect(receipt.logs).toHaveLength(LOGS);

    const poll = await turnsDuring(() => rpc('eth_getFilterChanges', [filter]) as Promise<unknown[]>);
    expect(poll.value).toHaveLength(LOGS);
    // In one piece the answer is made within a turn or two (around its awaits); a slice is 1,000 logs.
    expect(poll.turns).toBeGreaterThan(10);

    const logs = await turnsDuring(() => rpc('eth_getLogs', [{ blockHash: receipt.blockHash }]) as Promise<unknown[]>);
    expect(logs.value).toEqual(poll.value);
    expect(logs.turns).toBeGreaterThan(10);
  }, 60_000);
});
