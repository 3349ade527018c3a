/** The admin interface at /admin: devgate_* methods over JSON-RPC drive keys, usage, outages and limits (with the admin token). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../src/index.js';
import { DEFAULT_LIMITS } from '../../src/gateway/limits.js';
import { post } from '../support/http.js';
import { chain, rpc } from '../gateway/helpers.js';

const T0 = Date.UTC(2026, 0, 1, 10);
const clock = new ManualClock(T0);
let gw: Gateway;
let admin: string;
let auth: Record<string, string>;

/** Calls an admin method and gives its result, or throws its error. */
async function adm(method: string, params: unknown = []): Promise<any> {
  const r = await post(admin, { jsonrpc: '2.0', id: 1, method, params }, auth);
  expect(r.status).toBe(200);
  if (r.json.error) throw Object.assign(new Error(r.json.error.message), { code: r.json.error.code });
  return r.json.result;
}

beforeAll(async () => {
  gw = await start({ port: 0, chains: [chain('alpha')], clock, keys: { keys: [{ key: 'k1', plan: 'free' }] } });
  admin = `http://127.0.0.1:${gw.port}/admin`;
  auth = { authorization: `Bearer ${gw.adminToken}` };
});
afterAll(() => gw.stop());

describe('keys', () => {
  it('lists, adds, replaces and removes keys', async () => {
    expect(await adm('devgate_listKeys')).toEqual({ open: false, defaultPlan: 'developer', keys: [{ key: 'k1', plan: 'free' }] });
    expect((await post(gw.url('alpha', 'k2'), rpc('eth_chainId'))).status).toBe(401);
    expect(await adm('devgate_setKey', [{ key: 'k2', plan: 'team', secret: 'pw' }])).toEqual({ key: 'k2', plan: 'team', secretSet: true });
    expect((await post(gw.url('alpha', 'k2'), rpc('eth_chainId'))).text.trim()).toBe('invalid project id or project secret');
    await adm('devgate_setKey', { key: { key: 'k2', plan: 'team' } });
    expect((await post(gw.url('alpha', 'k2'), rpc('eth_chainId'))).status).toBe(200);
    expect(await adm('devgate_removeKey', ['k2'])).toBe(true);
    expect(await adm('devgate_removeKey', ['k2'])).toBe(false);
    expect((await post(gw.url('alpha', 'k2'), rpc('eth_chainId'))).status).toBe(401);
  });

  it('opens the gateway to unlisted keys on a chosen plan', async () => {
    expect(await adm('devgate_setKeysMode', [{ open: true, defaultPlan: 'growth' }])).toEqual({ open: true, defaultPlan: 'growth' });
    expect((await post(gw.url('alpha', 'whoever'), rpc('eth_chainId'))).status).toBe(200);
    await adm('devgate_setKeysMode', [{ open: false }]);
    expect((await post(gw.url('alpha', 'whoever'), rpc('eth_chainId'))).status).toBe(401);
  });

  it('names the bad field of a key', async () => {
    await expect(adm('devgate_setKey', [{ key: 'k3', plan: 'gold' }])).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/plan/) });
    await expect(adm('devgate_setKey', [{ key: 'k3', plan: 'free', allowlist: { contracts: ['0x1'] } }])).rejects.toThrow(/allowlist\.contracts\[0\]/);
    await expect(adm('devgate_setKey', ['k3'])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/invalid argument 0: expected an object/),
    });
    await expect(adm('devgate_setKeysMode', [{ defaultPlan: 'gold' }])).rejects.toThrow(/defaultPlan/);
  });
});

describe('usage', () => {
  it('reports requests and credits per method, today and in total, and resets', async () => {
    await adm('devgate_resetUsage');
    await post(gw.url('alpha', 'k1'), [rpc('eth_chainId', [], 1), rpc('eth_blockNumber', [], 2)]);
    const usage = await adm('devgate_getUsage', ['k1']);
    expect(usage).toEqual({
      key: 'k1',
      plan: 'free',
      limits: { creditsPerSecond: 500, creditsPerDay: 3_000_000 },
      day: '2026-01-01',
      today: { requests: 2, credits: 85, methods: { eth_chainId: { requests: 1, credits: 5 }, eth_blockNumber: { requests: 1, credits: 80 } } },
      total: { requests: 2, credits: 85, methods: { eth_chainId: { requests: 1, credits: 5 }, eth_blockNumber: { requests: 1, credits: 80 } } },
      rejected: { auth: 0, allowlist: 0, rate: 0, daily: 0, outage: 0 },
      closed: { slowReader: 0, methods: {} },
    });
    expect(await adm('devgate_getUsage')).toEqual([usage]);
    expect(gw.policy.getUsage('k1')).toEqual(usage);
    expect(await adm('devgate_resetUsage', ['k1'])).toBe(true);
    expect((await adm('devgate_getUsage', { key: 'k1' })).total.credits).toBe(0);
    await expect(adm('devgate_getUsage', ['nobody'])).rejects.toThrow(/unknown key "nobody"/);
  });
});

describe('outages', () => {
  it('sets, lists and clears outages', async () => {
    const info = await adm('devgate_setOutage', ['alpha', { methods: ['eth_blockNumber'], afterRequests: 1 }]);
    expect(info).toEqual({ network: 'alpha', status: 'scheduled', methods: ['eth_blockNumber'], afterRequests: 1 });
    expect(await adm('devgate_listOutages')).toEqual([info]);
    expect((await post(gw.url('alpha', 'k1'), rpc('eth_blockNumber'))).status).toBe(200);
    const r = await post(gw.url('alpha', 'k1'), rpc('eth_blockNumber'));
    expect(r.status).toBe(503);
    expect(r.json.error).toEqual({ code: -32603, message: 'service temporarily unavailable' });
    expect(await adm('devgate_clearOutage', ['alpha'])).toBe(true);
    expect(await adm('devgate_listOutages')).toEqual([]);
    expect(await adm('devgate_setOutage', { network: 'alpha' })).toMatchObject({ status: 'active', methods: null, startsAt: T0 });
    expect((await post(gw.url('alpha', 'k1'), rpc('eth_chainId'))).status).toBe(503);
    await adm('devgate_clearOutage', ['alpha']);
  });

  it('names a bad network or field', async () => {
    await expect(adm('devgate_setOutage', ['gamma'])).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/unknown network "gamma"/) });
    await expect(adm('devgate_setOutage', ['alpha', { durationMs: 'long' }])).rejects.toThrow(/durationMs/);
    await expect(adm('devgate_setOutage', ['alpha', { afterRequests: 1, at: 5 }])).rejects.toThrow(/not both/);
  });
});

describe('limits', () => {
  it('reads and changes limits', async () => {
    const limits = await adm('devgate_getLimits');
    // Every limit of GatewayLimits, with its default (docs/security.md "Budgets and limits" lists them).
    expect(limits).toEqual({ ...DEFAULT_LIMITS });
    expect(limits).toMatchObject({
      maxBatch: 1000,
      maxBodyBytes: 5242880,
      maxMessageBytes: 5242880,
      requestTimeoutMs: 30000,
      headersTimeoutMs: 10000,
      keepAliveTimeoutMs: 65000,
      maxConcurrentHeavy: 16,
      wsPingIntervalMs: 30000,
      maxBufferedBytes: 16777216,
      maxFiltersPerKey: 1000,
    });
    expect((await adm('devgate_setLimits', [{ maxBatch: 1 }])).maxBatch).toBe(1);
    expect((await post(gw.url('alpha', 'k1'), [rpc('eth_chainId', [], 1), rpc('eth_chainId', [], 2)])).json.error.code).toBe(-32005);
    await adm('devgate_setLimits', [{ maxBatch: 1000 }]);
    await expect(adm('devgate_setLimits', [{ maxBatch: 'many' }])).rejects.toThrow(/maxBatch/);
  });
});

describe('the envelope', () => {
  it('answers unknown methods, bad JSON, batches and GET like any JSON-RPC endpoint', async () => {
    expect((await post(admin, rpc('devgate_nope'), auth)).json.error).toMatchObject({
      code: -32601,
      message: 'the method devgate_nope does not exist/is not available',
    });
    expect((await post(admin, rpc('eth_chainId'), auth)).json.error.code).toBe(-32601);
    expect((await post(admin, '{nope', auth)).json.error.code).toBe(-32700);
    const batch = await post(admin, [rpc('devgate_listOutages', [], 1), rpc('devgate_getLimits', [], 2)], auth);
    expect(batch.json.map((r: any) => r.id)).toEqual([1, 2]);
    expect((await fetch(admin, { headers: auth })).status).toBe(405);
  });
});
