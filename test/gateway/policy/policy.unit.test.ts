/** The policy pieces on their own: credit table, allowlists, the rate window, usage days, outages, keys files. */
import { describe, expect, it } from 'vitest';
import { callAllowed, headersAllowed, originMatches, revealedBy } from '../../../src/gateway/policy/allowlist.js';
import { ethMethods } from '../../../src/eth/methods/index.js';
import { ANY_ACCOUNT, factsOf } from '../../../src/rpc/method.js';
import { creditsOf } from '../../../src/gateway/policy/credits.js';
import { Policy, basicPassword } from '../../../src/gateway/policy/index.js';
import { KeyStore, KeysError, parseKeys } from '../../../src/gateway/policy/keys.js';
import { Outages, OutageSpec } from '../../../src/gateway/policy/outage.js';
import { effectiveLimits } from '../../../src/gateway/policy/plans.js';
import { RateWindow } from '../../../src/gateway/policy/ratelimit.js';
import { UsageBook } from '../../../src/gateway/policy/usage.js';
import { ManualClock } from '../../../src/clock.js';

const A = '0x' + 'aa'.repeat(20);
const B = '0x' + 'bb'.repeat(20);
const ETH = ethMethods();
const facts = (method: string) => factsOf(ETH, method);
const revealed = (call: { method: string; params: unknown }) => revealedBy(facts(call.method), call);

describe('credits', () => {
  it('prices methods by the published table, 80 for the rest', () => {
    expect(creditsOf('eth_chainId')).toBe(5);
    expect(creditsOf('net_version')).toBe(5);
    expect(creditsOf('eth_syncing')).toBe(5);
    expect(creditsOf('eth_subscribe')).toBe(5);
    expect(creditsOf('eth_unsubscribe')).toBe(10);
    expect(creditsOf('eth_blockNumber')).toBe(80);
    expect(creditsOf('eth_getLogs')).toBe(255);
    expect(creditsOf('eth_estimateGas')).toBe(300);
    expect(creditsOf('eth_blobBaseFee')).toBe(300);
    expect(creditsOf('eth_getBlockReceipts')).toBe(1000);
    // devgate's own entries (issue 17): a block's receipts as eth_getBlockReceipts; up to 1024 slots as a log query.
    expect(creditsOf('debug_getRawReceipts')).toBe(1000);
    expect(creditsOf('eth_getStorageValues')).toBe(255);
    expect(creditsOf('rollup_getBlockWithTxHashes')).toBe(80);
    expect(creditsOf('web3_clientVersion')).toBe(80);
    expect(creditsOf('no_suchMethod')).toBe(80);
  });

  it('prices the Starknet subscription methods as eth_subscribe and eth_unsubscribe, under both prefixes', () => {
    for (const prefix of ['starknet', 'rollup']) {
      for (const m of ['subscribeNewHeads', 'subscribeEvents', 'subscribeTransactionStatus', 'subscribePendingTransactions'])
        expect(creditsOf(`${prefix}_${m}`)).toBe(5);
      expect(creditsOf(`${prefix}_unsubscribe`)).toBe(10);
    }
  });

  it('takes a key limit of 0 as the plan default', () => {
    expect(effectiveLimits('free')).toEqual({ creditsPerSecond: 500, creditsPerDay: 3_000_000 });
    expect(effectiveLimits('developer', { creditsPerSecond: 0, creditsPerDay: 7 })).toEqual({ creditsPerSecond: 4000, creditsPerDay: 7 });
    expect(effectiveLimits('team')).toEqual({ creditsPerSecond: 40_000, creditsPerDay: 75_000_000 });
    expect(effectiveLimits('growth')).toEqual({ creditsPerSecond: null, creditsPerDay: null });
    expect(effectiveLimits('custom', { creditsPerSecond: 10 })).toEqual({ creditsPerSecond: 10, creditsPerDay: null });
  });
});

describe('allowlists', () => {
  it('matches origins by host, scheme and *. wildcard', () => {
    expect(originMatches('https://example.com', 'example.com')).toBe(true);
    expect(originMatches('https://example.com', 'https://example.com')).toBe(true);
    expect(originMatches('http://example.com', 'https://example.com')).toBe(false);
    expect(originMatches('https://app.example.com', '*.example.com')).toBe(true);
    expect(originMatches('https://a.b.example.com', '*.example.com')).toBe(true);
    expect(originMatches('https://example.com', '*.example.com')).toBe(false);
    expect(originMatches('https://badexample.com', '*.example.com')).toBe(false);
    expect(originMatches('http://localhost:3000', 'localhost:3000')).toBe(true);
    expect(originMatches('http://localhost:3001', 'localhost:3000')).toBe(false);
    expect(originMatches('HTTPS://APP.Example.com', '*.example.COM')).toBe(true);
  });

  it('ORs entries of one kind and ANDs the kinds', () => {
    const list = { origins: ['a.com', 'b.com'], userAgents: ['Android', 'curl'] };
    expect(headersAllowed(list, { origin: 'https://b.com', userAgent: 'curl/8.0' })).toBe(true);
    expect(headersAllowed(list, { origin: 'https://c.com', userAgent: 'curl/8.0' })).toBe(false);
    expect(headersAllowed(list, { origin: 'https://a.com', userAgent: 'Firefox' })).toBe(false);
    expect(headersAllowed(list, { userAgent: 'curl/8.0' })).toBe(false);
    expect(headersAllowed({ userAgents: ['Android'] }, { userAgent: 'Mozilla/5.0 (Linux; Android 14)' })).toBe(true);
    expect(headersAllowed(undefined, {})).toBe(true);
    expect(headersAllowed({ origins: [] }, {})).toBe(true);
  });

  it('reads the revealed addresses from raw params, by the reveals fact of the method', () => {
    expect(revealed({ method: 'eth_getBalance', params: [A, 'latest'] })).toEqual([A]);
    expect(revealed({ method: 'eth_getStorageAt', params: [A, '0x0', 'latest'] })).toEqual([A]);
    expect(revealed({ method: 'eth_call', params: [{ to: A, data: '0x' }, 'latest'] })).toEqual([A]);
    expect(revealed({ method: 'eth_call', params: [{ to: A }, 'latest', { [B]: { balance: '0x1' } }] })).toEqual([A, B]);
    expect(revealed({ method: 'eth_call', params: [{ to: A }, 'latest', { [A]: { code: '0x00' } }] })).toBe(ANY_ACCOUNT);
    expect(revealed({ method: 'eth_estimateGas', params: [{ from: B }] })).toBe(ANY_ACCOUNT);
    expect(revealed({ method: 'eth_getLogs', params: [{ address: [A, B] }] })).toEqual([A, B]);
    expect(revealed({ method: 'eth_getLogs', params: [{ fromBlock: '0x0' }] })).toBe(ANY_ACCOUNT);
    expect(revealed({ method: 'eth_getProof', params: [B, [], 'latest'] })).toEqual([B]);
    expect(revealed({ method: 'eth_subscribe', params: ['newHeads'] })).toEqual([]);
    expect(revealed({ method: 'eth_subscribe', params: ['logs', { address: B }] })).toEqual([B]);
    expect(revealed({ method: 'debug_traceTransaction', params: ['0x' + '11'.repeat(32)] })).toBe(ANY_ACCOUNT);
    expect(revealed({ method: 'eth_blockNumber', params: [] })).toBeUndefined();
  });

  it('checks methods and contracts per call', () => {
    const list = { methods: ['eth_getBalance', 'eth_chainId'], contracts: [A] };
    expect(callAllowed(list, { method: 'eth_chainId', params: [] }, facts('eth_chainId'))).toBe(true);
    expect(callAllowed(list, { method: 'eth_blockNumber', params: [] }, facts('eth_blockNumber'))).toBe(false);
    expect(callAllowed(list, { method: 'eth_getBalance', params: [A.toUpperCase().replace('0X', '0x'), 'latest'] }, facts('eth_getBalance'))).toBe(true);
    expect(callAllowed(list, { method: 'eth_getBalance', params: [B, 'latest'] }, facts('eth_getBalance'))).toBe(false);
    expect(callAllowed({ contracts: [A] }, { method: 'eth_getLogs', params: [{ address: [A, B] }] }, facts('eth_getLogs'))).toBe(false);
    expect(callAllowed({ contracts: [A, B] }, { method: 'eth_getLogs', params: [{ address: [A, B] }] }, facts('eth_getLogs'))).toBe(true);
    expect(callAllowed({ contracts: [A] }, { method: 'eth_getLogs', params: [{}] }, facts('eth_getLogs'))).toBe(false);
    // eth_getStorageValues: every address of its request object must be allowed.
    expect(
      callAllowed({ contracts: [A] }, { method: 'eth_getStorageValues', params: [{ [A]: ['0x' + '00'.repeat(32)] }] }, facts('eth_getStorageValues')),
    ).toBe(true);
    expect(callAllowed({ contracts: [A] }, { method: 'eth_getStorageValues', params: [{ [A]: [], [B]: [] }] }, facts('eth_getStorageValues'))).toBe(false);
    expect(callAllowed({ contracts: [A] }, { method: 'eth_getStorageValues', params: [null] }, facts('eth_getStorageValues'))).toBe(false);
    expect(callAllowed({ contracts: [A] }, { method: 'eth_blockNumber', params: [] }, facts('eth_blockNumber'))).toBe(true);
  });
});

describe('the per-second window', () => {
  it('admits up to the limit, then says how long to back off, and slides', () => {
    const w = new RateWindow();
    w.add(0, 300);
    w.add(400, 150);
    expect(w.check(500, 50, 500)).toEqual({ ok: true });
    expect(w.check(500, 100, 500)).toEqual({ ok: false, allowed: 500, current: 550, backoffSeconds: 0.5 });
    expect(w.check(999, 100, 500)).toMatchObject({ ok: false, backoffSeconds: 0.001 });
    expect(w.check(1000, 100, 500)).toEqual({ ok: true });
    expect(w.used(1400)).toBe(0);
    expect(w.check(0, 600, 500)).toMatchObject({ ok: false, backoffSeconds: 1 });
  });

  it('keeps an exact sum over many entries as old ones leave the window', () => {
    const w = new RateWindow();
    for (let t = 0; t < 3000; t++) w.add(t, 1 + (t % 3));
    const sum = (from: number) => Array.from({ length: 3000 - from }, (_, i) => 1 + ((from + i) % 3)).reduce((x, y) => x + y, 0);
    expect(w.used(2500)).toBe(sum(1501));
    expect(w.used(2999)).toBe(sum(2000));
    expect(w.used(4000)).toBe(0);
    w.add(4000, 7);
    expect(w.used(4000)).toBe(7);
  });
});

describe('usage', () => {
  it('counts per method today and in total, and starts a new day at 00:00 UTC', () => {
    const book = new UsageBook();
    const day1 = Date.UTC(2026, 0, 1, 23, 59, 59);
    book.charge('k', day1, [
      { method: 'eth_chainId', credits: 5 },
      { method: 'eth_chainId', credits: 5 },
      { method: 'eth_blockNumber', credits: 80 },
    ]);
    expect(book.creditsToday('k', day1)).toBe(90);
    const r1 = book.report('k', day1);
    expect(r1.day).toBe('2026-01-01');
    expect(r1.today.methods.eth_chainId).toEqual({ requests: 2, credits: 10 });
    const day2 = Date.UTC(2026, 0, 2);
    expect(book.creditsToday('k', day2)).toBe(0);
    book.charge('k', day2, [{ method: 'eth_chainId', credits: 5 }]);
    book.reject('k', day2, 'rate');
    const r2 = book.report('k', day2);
    expect(r2.day).toBe('2026-01-02');
    expect(r2.today).toEqual({ requests: 1, credits: 5, methods: { eth_chainId: { requests: 1, credits: 5 } } });
    expect(r2.total.credits).toBe(95);
    expect(r2.total.requests).toBe(4);
    expect(r2.rejected.rate).toBe(1);
  });
});

describe('outages', () => {
  const spec = (s: unknown) => OutageSpec.parse(s);
  it('starts now, after N requests, or at a time, and ends after its duration', () => {
    const o = new Outages();
    o.set('m', spec({ afterRequests: 2, durationMs: 1000 }), 0);
    expect(o.list(0)[0]).toMatchObject({ status: 'scheduled', afterRequests: 2 });
    expect(o.observe('m', 10)).toBeUndefined();
    expect(o.observe('m', 20)).toBeUndefined();
    expect(o.observe('m', 30)?.covers('eth_chainId')).toBe(true);
    expect(o.list(30)[0]).toMatchObject({ status: 'active', startsAt: 30, endsAt: 1030 });
    expect(o.observe('m', 1029)).toBeDefined();
    expect(o.observe('m', 1030)).toBeUndefined();
    expect(o.list(1030)).toEqual([]);

    o.set('m', spec({ at: '1970-01-01T00:00:05Z', methods: ['eth_blockNumber'] }), 0);
    expect(o.observe('m', 4999)).toBeUndefined();
    const active = o.observe('m', 5000)!;
    expect(active.covers('eth_blockNumber')).toBe(true);
    expect(active.covers('eth_chainId')).toBe(false);
    expect(o.clear('m')).toBe(true);
    expect(o.observe('m', 6000)).toBeUndefined();
    expect(o.observe('other', 0)).toBeUndefined();
  });

  it('rejects a spec with both a request count and a time', () => {
    expect(OutageSpec.safeParse({ afterRequests: 1, at: 5 }).success).toBe(false);
    expect(OutageSpec.safeParse({ durationMs: 0 }).success).toBe(false);
  });
});

describe('keys', () => {
  it('validates a keys file with errors that name the field', () => {
    const bad = (v: unknown) => {
      try {
        parseKeys(v, 'file test.json');
      } catch (err) {
        expect(err).toBeInstanceOf(KeysError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(bad({ keys: [{ key: 'k', plan: 'gold' }] })).toMatch(/keys\[0\]\.plan/);
    expect(bad({ keys: [{ key: 'bad key!', plan: 'free' }] })).toMatch(/keys\[0\]\.key/);
    expect(bad({ keys: [{ key: 'k', plan: 'free', allowlist: { contracts: ['0x12'] } }] })).toMatch(/keys\[0\]\.allowlist\.contracts\[0\]/);
    expect(bad({ keys: [{ key: 'k', plan: 'free', limits: { creditsPerSecond: -1 } }] })).toMatch(/keys\[0\]\.limits\.creditsPerSecond/);
    expect(
      bad({
        keys: [
          { key: 'k', plan: 'free' },
          { key: 'k', plan: 'team' },
        ],
      }),
    ).toMatch(/keys\[1\]\.key: duplicate key "k"/);
    expect(bad({ keys: [{ key: 'k', plan: 'free', colour: 'red' }] })).toMatch(/keys\[0\]/);
    expect(bad({ keyz: [] })).toMatch(/keyz|root/);
  });

  it('is open on the developer plan without a file, closed with one', () => {
    const open = new KeyStore({ open: true, defaultPlan: 'developer', keys: [] });
    expect(open.lookup('anything')).toMatchObject({ plan: 'developer', listed: false, limits: { creditsPerSecond: 4000 } });
    const closed = new KeyStore(parseKeys({ keys: [{ key: 'k1', plan: 'free' }] }, 'x'));
    expect(closed.lookup('k1')).toMatchObject({ plan: 'free', listed: true });
    expect(closed.lookup('k2')).toBeUndefined();
  });

  it('reads the secret from HTTP Basic auth with an empty user', () => {
    expect(basicPassword(`Basic ${Buffer.from(':s3cret').toString('base64')}`)).toBe('s3cret');
    expect(basicPassword(`Basic ${Buffer.from(':a:b').toString('base64')}`)).toBe('a:b');
    expect(basicPassword('Bearer xyz')).toBeUndefined();
    expect(basicPassword(undefined)).toBeUndefined();
  });
});

describe('the policy as a whole', () => {
  it('charges admitted requests only, and skips allowlists for a request with the secret', () => {
    const clock = new ManualClock(0);
    const exhausted: string[] = [];
    const p = new Policy(
      parseKeys(
        { keys: [{ key: 'k', plan: 'free', secret: 's', requireSecret: false, allowlist: { methods: ['eth_chainId'] }, limits: { creditsPerDay: 100 } }] },
        'x',
      ),
      clock,
      (key) => exhausted.push(key),
    );
    const auth = p.authenticate('k', undefined);
    expect(auth.ok).toBe(true);
    if (!auth.ok) return;
    const caller = { ...auth, failover: false };
    expect(p.admit(caller, 'm', [{ method: 'eth_blockNumber', params: [] }], ETH)).toEqual({ ok: false, refusal: { kind: 'allowlist' } });
    expect(p.admit(caller, 'm', [{ method: 'eth_chainId', params: [] }], ETH)).toMatchObject({ ok: true, credits: 5 });
    const withSecret = p.authenticate('k', `Basic ${Buffer.from(':s').toString('base64')}`);
    expect(withSecret).toMatchObject({ ok: true, secretGiven: true });
    expect(p.authenticate('k', `Basic ${Buffer.from(':wrong').toString('base64')}`)).toEqual({ ok: false, reason: 'bad-secret' });
    if (!withSecret.ok) return;
    expect(p.admit({ ...withSecret, failover: false }, 'm', [{ method: 'eth_blockNumber', params: [] }], ETH)).toMatchObject({ ok: true, credits: 80 });
    expect(p.admit({ ...withSecret, failover: false }, 'm', Array(4).fill({ method: 'eth_chainId', params: [] }), ETH)).toEqual({
      ok: false,
      refusal: { kind: 'daily' },
    });
    expect(exhausted).toEqual(['k']);
    expect(p.usage.report('k', 0)).toMatchObject({ today: { requests: 2, credits: 85 }, rejected: { allowlist: 1, daily: 1, auth: 1 } });
  });
});
