/** Credits, per-second and daily limits with a manual clock, over HTTP and WebSocket; usage accounting. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';
import { ask, chain, closeCode, openWs, refusedUpgrade, rpc } from './helpers.js';

const T0 = Date.UTC(2026, 0, 1, 10);
const clock = new ManualClock(T0);
let gw: Gateway;

beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [chain('alpha')],
    clock,
    keys: {
      keys: [
        { key: 'free', plan: 'free' },
        { key: 'tiny', plan: 'custom', limits: { creditsPerSecond: 100, creditsPerDay: 240 } },
        { key: 'growth', plan: 'growth' },
        { key: 'dev', plan: 'developer', limits: { creditsPerSecond: 0, creditsPerDay: 0 } },
      ],
    },
  });
});
afterAll(() => gw.stop());
beforeEach(() => {
  clock.set(T0);
  gw.policy.resetUsage();
});

const many = (n: number, method: string) => Array.from({ length: n }, (_, i) => rpc(method, [], i));

describe('per-second limit', () => {
  it('answers 429 with -32005 and the rate data once a key is over its credits per second', async () => {
    const url = gw.url('alpha', 'free');
    for (let i = 0; i < 6; i++) expect((await post(url, rpc('eth_blockNumber'))).status).toBe(200);
    const r = await post(url, rpc('eth_blockNumber', [], 'x'));
    expect(r.status).toBe(429);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      error: {
        code: -32005,
        message: 'project ID request rate exceeded',
        data: { rate: { allowed_rps: 500, current_rps: 560, backoff_seconds: 1 }, see: expect.any(String) },
      },
    });
    // A cheaper call still fits (480 + 5 <= 500); the refused one cost nothing.
    expect((await post(url, rpc('eth_chainId'))).status).toBe(200);
    expect(gw.policy.getUsage('free').today).toMatchObject({ requests: 7, credits: 485 });
    expect(gw.policy.getUsage('free').rejected.rate).toBe(1);
    clock.advance(400);
    expect((await post(url, rpc('eth_blockNumber'))).json.error.data.rate.backoff_seconds).toBe(0.6);
    clock.advance(600);
    expect((await post(url, rpc('eth_blockNumber'))).status).toBe(200);
  });

  it('prices a batch at the sum of its calls', async () => {
    const url = gw.url('alpha', 'free');
    const over = await post(url, many(7, 'eth_blockNumber'));
    expect(over.status).toBe(429);
    expect(over.json.id).toBe(null);
    expect(over.json.error.data.rate.current_rps).toBe(560);
    const exact = await post(url, [...many(6, 'eth_blockNumber'), ...many(4, 'eth_chainId')]);
    expect(exact.status).toBe(200);
    expect(exact.json).toHaveLength(10);
    const usage = gw.policy.getUsage('free');
    expect(usage.today.credits).toBe(500);
    expect(usage.today.methods).toEqual({ eth_blockNumber: { requests: 6, credits: 480 }, eth_chainId: { requests: 4, credits: 20 } });
    // Invalid calls of a batch cost nothing; an unknown method costs the default 80.
    clock.advance(1000);
    const mixed = await post(url, [{ jsonrpc: '1.0', id: 1, method: 'eth_chainId' }, rpc('eth_fooBar', [], 2)]);
    expect(mixed.json.map((r: any) => r.error.code)).toEqual([-32600, -32601]);
    expect(gw.policy.getUsage('free').today.methods.eth_fooBar).toEqual({ requests: 1, credits: 80 });
  });

  it('applies the developer plan by default (4,000 credits/s) and nothing to growth keys', async () => {
    expect((await post(gw.url('alpha', 'dev'), many(50, 'eth_blockNumber'))).status).toBe(200);
    expect((await post(gw.url('alpha', 'dev'), rpc('eth_chainId'))).status).toBe(429);
    const growth = gw.url('alpha', 'growth');
    for (let i = 0; i < 3; i++) expect((await post(growth, many(1000, 'eth_blockNumber'))).status).toBe(200);
    expect(gw.policy.getUsage('growth').today.credits).toBe(240_000);
  });

  it('answers over WebSocket with the error in the message and keeps the connection', async () => {
    const ws = await openWs(gw.wsUrl('alpha', 'free'));
    const refused = await ask(ws, many(7, 'eth_blockNumber'));
    expect(refused).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'project ID request rate exceeded' } });
    expect(await ask(ws, rpc('eth_chainId', [], 3))).toEqual({ jsonrpc: '2.0', id: 3, result: '0x1' });
    ws.close();
  });
});

describe('daily quota', () => {
  it("answers 429 once the day is spent, closes the key's sockets, and resets at 00:00 UTC", async () => {
    const url = gw.url('alpha', 'tiny');
    const ws = await openWs(gw.wsUrl('alpha', 'tiny'));
    const closing = closeCode(ws);
    for (let i = 0; i < 3; i++) {
      expect((await post(url, rpc('eth_blockNumber'))).status).toBe(200);
      clock.advance(1000);
    }
    const r = await post(url, rpc('eth_chainId', [], 9));
    expect(r.status).toBe(429);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32005, message: 'daily request count exceeded, request rate limited' } });
    expect(await closing).toBe(1008);
    const upgrade = await refusedUpgrade(gw.wsUrl('alpha', 'tiny'));
    expect(upgrade.status).toBe(429);
    expect(JSON.parse(upgrade.body).error.message).toBe('daily request count exceeded, request rate limited');
    expect(gw.policy.getUsage('tiny')).toMatchObject({ day: '2026-01-01', today: { credits: 240 }, rejected: { daily: 1 } });

    clock.set(Date.UTC(2026, 0, 1, 23, 59, 59, 999));
    expect((await post(url, rpc('eth_chainId'))).status).toBe(429);
    clock.set(Date.UTC(2026, 0, 2));
    expect((await post(url, rpc('eth_chainId'))).status).toBe(200);
    const usage = gw.policy.getUsage('tiny');
    expect(usage).toMatchObject({ day: '2026-01-02', today: { requests: 1, credits: 5 }, total: { requests: 4, credits: 245 } });
  });

  it('over WebSocket: the refusing message arrives, then the connection closes', async () => {
    const ws = await openWs(gw.wsUrl('alpha', 'tiny'));
    const closing = closeCode(ws);
    for (let i = 0; i < 3; i++) {
      expect((await ask(ws, rpc('eth_blockNumber'))).result).toBe('0x0');
      clock.advance(1000);
    }
    expect((await ask(ws, rpc('eth_blockNumber'))).error).toEqual({ code: -32005, message: 'daily request count exceeded, request rate limited' });
    expect(await closing).toBe(1008);
  });
});
