/** What a real client (viem) sees of the policy: 401, 429 and 503 surface as errors a test suite can assert on. */
import { createPublicClient, http, webSocket, HttpRequestError, InternalRpcError, LimitExceededRpcError, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../src/index.js';
import { basic, chain } from './helpers.js';

const clock = new ManualClock(Date.UTC(2026, 0, 1, 10));
let gw: Gateway;

beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [chain('alpha')],
    clock,
    keys: {
      keys: [
        { key: 'free', plan: 'free' },
        { key: 'locked', plan: 'growth', secret: 'pw' },
        { key: 'growth', plan: 'growth' },
      ],
    },
  });
});
afterAll(() => gw.stop());

const client = (url: string, headers: Record<string, string> = {}): PublicClient =>
  createPublicClient({ transport: http(url, { retryCount: 0, fetchOptions: { headers } }) });

describe('viem over HTTP', () => {
  it('gets the -32005 rate error once the free plan is spent for this second', async () => {
    const c = client(gw.url('alpha', 'free'));
    for (let i = 0; i < 6; i++) expect(await c.getBlockNumber({ cacheTime: 0 })).toBe(0n);
    const err = await c.getBlockNumber({ cacheTime: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LimitExceededRpcError);
    expect(err).toMatchObject({ code: -32005, details: 'project ID request rate exceeded' });
    clock.advance(1000);
    expect(await c.getBlockNumber({ cacheTime: 0 })).toBe(0n);
  });

  it('sends the secret as Basic auth, and gets 401 without it', async () => {
    expect(await client(gw.url('alpha', 'locked'), basic('pw')).getChainId()).toBe(1);
    const err = await client(gw.url('alpha', 'locked'))
      .getChainId()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpRequestError);
    expect((err as HttpRequestError).status).toBe(401);
    expect((err as HttpRequestError).details).toContain('invalid project id or project secret');
  });

  it('gets a 503 during an outage', async () => {
    gw.policy.setOutage('alpha');
    try {
      const err = await client(gw.url('alpha', 'growth'))
        .getChainId()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InternalRpcError);
      expect(err).toMatchObject({ code: -32603, details: 'service temporarily unavailable' });
    } finally {
      gw.policy.clearOutage('alpha');
    }
  });
});

describe('viem over WebSocket', () => {
  it('gets the outage as a JSON-RPC error on the open connection', async () => {
    const c = createPublicClient({ transport: webSocket(gw.wsUrl('alpha', 'growth'), { retryCount: 0 }) });
    expect(await c.getChainId()).toBe(1);
    gw.policy.setOutage('alpha');
    try {
      await expect(c.getBlockNumber({ cacheTime: 0 })).rejects.toMatchObject({ code: -32603 });
    } finally {
      gw.policy.clearOutage('alpha');
    }
    expect(await c.getBlockNumber({ cacheTime: 0 })).toBe(0n);
    await c.transport.getRpcClient().then((r: { close(): void }) => r.close());
  });
});
