/** Outages (manual and scheduled) and partner forwarding for eligible plans and methods, over HTTP and WebSocket. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';
import { ask, chain, openWs, rpc } from './helpers.js';

const T0 = Date.UTC(2026, 0, 1, 10);
const clock = new ManualClock(T0);
const UNAVAILABLE = { code: -32603, message: 'service temporarily unavailable' };
const FAILOVER = { 'enable-failover': 'true' };
/** A chain with one block holding one real transfer, so forwarded answers are real blocks and receipts. */
const alpha = { name: 'alpha', kind: 'eth', chainId: 1, blocks: [{ transactions: [{ from: 0, to: '0x' + '12'.repeat(20), value: '0x1' }] }] };
let gw: Gateway;
let byHash: object;
let receipt: object;
/** What the methods forwarding covers answer outside an outage. */
let baseline: { byHash: any; receipt: any };

beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [alpha, chain('beta', 5)],
    clock,
    keys: {
      keys: [
        { key: 'growth', plan: 'growth' },
        { key: 'custom', plan: 'custom' },
        { key: 'team', plan: 'team' },
        { key: 'free', plan: 'free' },
      ],
    },
  });
  const block = (await post(gw.url('alpha', 'growth'), rpc('eth_getBlockByNumber', ['0x1', false]))).json.result;
  byHash = rpc('eth_getBlockByHash', [block.hash, false]);
  receipt = rpc('eth_getTransactionReceipt', [block.transactions[0]], 2);
  baseline = {
    byHash: (await post(gw.url('alpha', 'growth'), byHash)).json,
    receipt: (await post(gw.url('alpha', 'growth'), receipt)).json,
  };
  expect(baseline.byHash.result).toMatchObject({ hash: block.hash, number: '0x1' });
  expect(baseline.receipt.result).toMatchObject({ transactionHash: block.transactions[0], blockHash: block.hash, status: '0x1' });
});
afterAll(() => gw.stop());
beforeEach(() => {
  clock.set(T0);
  for (const n of ['alpha', 'beta']) gw.policy.clearOutage(n);
  gw.policy.resetUsage();
});

describe('a manual outage', () => {
  it('answers 503 with -32603 over HTTP, and the error in the message over WebSocket', async () => {
    const ws = await openWs(gw.wsUrl('alpha', 'team'));
    gw.policy.setOutage('alpha');
    const r = await post(gw.url('alpha', 'team'), rpc('eth_chainId', [], 4));
    expect(r.status).toBe(503);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: 4, error: UNAVAILABLE });
    expect((await post(gw.url('alpha', 'team'), [rpc('eth_chainId'), rpc('net_version', [], 2)])).json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: UNAVAILABLE,
    });
    expect(await ask(ws, rpc('eth_chainId', [], 5))).toEqual({ jsonrpc: '2.0', id: 5, error: UNAVAILABLE });
    // Other networks are not affected; a refused request costs nothing.
    expect((await post(gw.url('beta', 'team'), rpc('eth_chainId'))).json.result).toBe('0x5');
    expect(gw.policy.getUsage('team')).toMatchObject({ today: { requests: 1, credits: 5 }, rejected: { outage: 3 } });
    expect(gw.policy.clearOutage('alpha')).toBe(true);
    expect(await ask(ws, rpc('eth_chainId', [], 6))).toEqual({ jsonrpc: '2.0', id: 6, result: '0x1' });
    ws.close();
  });

  it('covers only the listed methods when given some', async () => {
    gw.policy.setOutage('alpha', { methods: ['eth_blockNumber'] });
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(200);
    expect((await post(gw.url('alpha', 'team'), rpc('eth_blockNumber'))).status).toBe(503);
    expect((await post(gw.url('alpha', 'team'), [rpc('eth_chainId'), rpc('eth_blockNumber', [], 2)])).status).toBe(503);
  });

  it("ends by itself after its duration on devgate's clock", async () => {
    expect(gw.policy.setOutage('alpha', { durationMs: 60_000 })).toMatchObject({ status: 'active', startsAt: T0, endsAt: T0 + 60_000 });
    clock.advance(59_999);
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(503);
    clock.advance(1);
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(200);
    expect(gw.policy.listOutages()).toEqual([]);
  });
});

describe('a scheduled outage', () => {
  it('starts after N requests', async () => {
    gw.policy.setOutage('alpha', { afterRequests: 2, durationMs: 1000 });
    expect(gw.policy.listOutages()).toEqual([{ network: 'alpha', status: 'scheduled', methods: null, afterRequests: 2, durationMs: 1000 }]);
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(200);
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(200);
    clock.advance(10);
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(503);
    expect(gw.policy.listOutages()[0]).toMatchObject({ status: 'active', startsAt: T0 + 10, endsAt: T0 + 1010 });
    clock.advance(1000);
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(200);
  });

  it('starts at a time', async () => {
    gw.policy.setOutage('alpha', { at: new Date(T0 + 5000).toISOString(), durationMs: 2000 });
    expect(gw.policy.listOutages()[0]).toMatchObject({ status: 'scheduled', startsAt: T0 + 5000 });
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(200);
    clock.set(T0 + 5000);
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(503);
    clock.set(T0 + 7000);
    expect((await post(gw.url('alpha', 'team'), rpc('eth_chainId'))).status).toBe(200);
  });

  it('rejects a bad spec or network with a message naming it', () => {
    expect(() => gw.policy.setOutage('gamma')).toThrow(/unknown network "gamma"/);
    expect(() => gw.policy.setOutage('alpha', { afterRequests: -1 })).toThrow(/afterRequests/);
    expect(() => gw.policy.setOutage('alpha', { at: 'tomorrow' } as never)).toThrow(/at/);
  });
});

describe('forwarding to the partner provider', () => {
  it('answers eth_getBlockByHash and eth_getTransactionReceipt for growth and custom keys that ask for failover', async () => {
    gw.policy.setOutage('alpha');
    for (const key of ['growth', 'custom']) {
      const r = await post(gw.url('alpha', key), byHash, FAILOVER);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-devgate-forwarded')).toBe('partner');
      expect(r.json).toEqual(baseline.byHash);
      const t = await post(gw.url('alpha', key), receipt, FAILOVER);
      expect(t.headers.get('x-devgate-forwarded')).toBe('partner');
      expect(t.json).toEqual(baseline.receipt);
    }
    const batch = await post(gw.url('alpha', 'growth'), [byHash, receipt], FAILOVER);
    expect(batch.headers.get('x-devgate-forwarded')).toBe('partner');
    expect(batch.json).toEqual([baseline.byHash, baseline.receipt]);
    // Forwarded requests are charged as usual.
    expect(gw.policy.getUsage('growth').today.requests).toBe(4);
  });

  it('does not forward other plans, other methods, or without the header', async () => {
    gw.policy.setOutage('alpha');
    for (const key of ['team', 'free']) expect((await post(gw.url('alpha', key), byHash, FAILOVER)).status).toBe(503);
    expect((await post(gw.url('alpha', 'growth'), byHash)).status).toBe(503);
    expect((await post(gw.url('alpha', 'growth'), byHash, { 'enable-failover': 'false' })).status).toBe(503);
    const other = await post(gw.url('alpha', 'growth'), rpc('eth_getBlockByNumber', ['0x0', false]), FAILOVER);
    expect(other.status).toBe(503);
    expect(other.headers.get('x-devgate-forwarded')).toBe(null);
    expect((await post(gw.url('alpha', 'growth'), [byHash, rpc('eth_chainId', [], 3)], FAILOVER)).status).toBe(503);
  });

  it("forwards only the covered calls' outage: a batch whose uncovered calls run normally", async () => {
    gw.policy.setOutage('alpha', { methods: ['eth_getBlockByHash'] });
    const r = await post(gw.url('alpha', 'custom'), [byHash, rpc('eth_chainId', [], 3)], FAILOVER);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-devgate-forwarded')).toBe('partner');
    expect(r.json).toEqual([baseline.byHash, { jsonrpc: '2.0', id: 3, result: '0x1' }]);
  });

  it('marks nothing when there is no outage', async () => {
    const r = await post(gw.url('alpha', 'growth'), byHash, FAILOVER);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-devgate-forwarded')).toBe(null);
  });

  it('over WebSocket: a connection opened with Enable-Failover is forwarded for the eligible methods', async () => {
    gw.policy.setOutage('alpha');
    const ws = await openWs(gw.wsUrl('alpha', 'growth'), FAILOVER);
    expect(await ask(ws, byHash)).toEqual(baseline.byHash);
    expect(await ask(ws, rpc('eth_blockNumber', [], 8))).toEqual({ jsonrpc: '2.0', id: 8, error: UNAVAILABLE });
    ws.close();
    const plain = await openWs(gw.wsUrl('alpha', 'growth'));
    expect((await ask(plain, byHash)).error).toEqual(UNAVAILABLE);
    plain.close();
  });
});
