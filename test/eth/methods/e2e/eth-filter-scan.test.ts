/**
 * Filters and `logs` subscriptions that match nothing of a large block still do work: each looks at every log whose
 * topics the block's index cannot rule out. That work counts against the fan-out's slice (#25): 500 of them over a
 * block of 5,000 logs let the event loop turn, where they were one turn before (every log looked at, none taken,
 * nothing counted). Answers are unchanged: nothing is notified, every poll answers [].
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, start } from '../../../../src/index.js';
import { WsClient } from '../../../support/http.js';
import { expectYielded, watchTurns } from '../../../support/turns.js';

let gw: Gateway;
let from: string;
const LOGS = 5_000;
const WATCHERS = 500;
/**
 * The init code of a loop of LOGS LOG2s, log k with topics (k + 1, k): PUSH2 n; JUMPDEST; DUP1; PUSH1 1; DUP3; ADD;
 * PUSH1 0; PUSH1 0; LOG2; PUSH1 1; SWAP1; SUB; DUP1; PUSH1 3; JUMPI; STOP. Topics [[x], [x]] then match no log, though
 * x is at both positions in the block: every log is looked at.
 */
const LOG_LOOP = `0x61${LOGS.toString(16).padStart(4, '0')}5b806001820160006000a2600190038060035700`;
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const nothing = (x: number) => ({ topics: [word(x), word(x)] });

const rpc = (method: string, params: unknown[] = []) => gw.provider('dev').request({ method, params }) as Promise<unknown>;
const send = () => rpc('eth_sendTransaction', [{ from, data: LOG_LOOP, gas: '0xe4e1c0' }]);

beforeAll(async () => {
  gw = await start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } }], dev: {}, bare: 'dev' });
  [from] = (await rpc('eth_accounts')) as [string];
});
afterAll(() => gw?.stop());

describe('filters that match nothing of a large block', () => {
  it('500 log filters, each looking at 5,000 logs and taking none, let the event loop turn; every poll answers []', async () => {
    const ids: unknown[] = [];
    for (let i = 0; i < WATCHERS; i++) ids.push(await rpc('eth_newFilter', [nothing(i + 2)]));
    const polls: unknown[] = [];
    const turns = await watchTurns(
      (async () => {
        await send();
        for (const id of ids) polls.push(await rpc('eth_getFilterChanges', [id]));
      })(),
    );
    expect(polls).toEqual(ids.map(() => []));
    expectYielded(turns);
    for (const id of ids) await rpc('eth_uninstallFilter', [id]);
  }, 60_000);
});

describe('logs subscriptions that match nothing of a large block', () => {
  it('500 subscriptions on one connection, each looking at 5,000 logs and notified of none, let the event loop turn', async () => {
    const ws = await WsClient.open(gw.wsUrl('dev'));
    try {
      for (let i = 0; i < WATCHERS; i++) {
        const answer = await ws.request({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['logs', nothing(i + 2)] });
        expect(answer.result).toMatch(/^0x/);
      }
      // Subscribed last, so notified after every logs subscription has looked at the block.
      const heads = (await ws.request({ jsonrpc: '2.0', id: -1, method: 'eth_subscribe', params: ['newHeads'] })).result as string;
      const turns = await watchTurns(
        (async () => {
          await send();
          const note = await ws.next(30_000);
          // Nothing matched: the first notification is the new head.
          expect(note.params.subscription).toBe(heads);
        })(),
      );
      expectYielded(turns);
    } finally {
      ws.close();
    }
  }, 60_000);
});
