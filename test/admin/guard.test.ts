/**
 * The admin interface is no web page (issue 25): it wants the admin token, answers no request with an Origin
 * (preflights get no CORS headers), no Host that is not loopback, an IP address or the configured host (DNS
 * rebinding), and shows no secret in full. A refused request changes nothing.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { hostName } from '../../src/admin/guard.js';
import { post } from '../support/http.js';
import { chain, refusedUpgrade, rpc } from '../gateway/helpers.js';

let gw: Gateway;
let admin: string;
let auth: Record<string, string>;

const KEYS = {
  keys: [
    { key: 'restricted', plan: 'free', allowlist: { methods: ['eth_chainId'] } },
    { key: 'server', plan: 'team', secret: 's3cret' },
  ],
};

beforeAll(async () => {
  gw = await start({ port: 0, chains: [chain('alpha')], keys: KEYS });
  admin = `http://127.0.0.1:${gw.port}/admin`;
  auth = { authorization: `Bearer ${gw.adminToken}` };
});
afterAll(() => gw.stop());

/** A raw request with any Host header (fetch sends its own). */
function raw(method: string, headers: Record<string, string>, body = ''): Promise<{ status: number; headers: Record<string, unknown>; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: gw.port, path: '/admin', method, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text === '' ? undefined : JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const LIFT = rpc('devgate_setKey', [{ key: 'restricted', plan: 'growth' }]);

describe('the admin token', () => {
  it('is made at start: 32 random bytes as hex', () => {
    expect(gw.adminToken).toMatch(/^[0-9a-f]{64}$/);
  });

  it('missing: 401 with a JSON-RPC error naming the problem, and nothing changes', async () => {
    const r = await post(admin, LIFT);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="devgate admin"');
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32002, message: expect.stringMatching(/^admin token required: send it as "Authorization: Bearer <token>"/) },
    });
    expect(r.text).not.toMatch(/at .*\.ts/);
    expect(gw.policy.listKeys().keys[0]).toEqual(KEYS.keys[0]);
  });

  it('wrong (or not Bearer): 401 invalid admin token', async () => {
    // The token with its last digit changed (a made token ends in 0 one time in 16: then it is changed to 1).
    const changed = `${gw.adminToken.slice(0, -1)}${gw.adminToken.endsWith('0') ? '1' : '0'}`;
    for (const authorization of [`Bearer ${changed}`, `Bearer ${gw.adminToken}x`, 'Bearer x']) {
      const r = await post(admin, LIFT, { authorization });
      expect(r.status).toBe(401);
      expect(r.json.error).toEqual({ code: -32002, message: 'invalid admin token' });
    }
    expect((await post(admin, LIFT, { authorization: `Basic ${Buffer.from(`:${gw.adminToken}`).toString('base64')}` })).status).toBe(401);
    expect(gw.policy.listKeys().keys[0]).toEqual(KEYS.keys[0]);
  });

  it('right: 200, in any case of "Bearer"', async () => {
    const r = await post(admin, rpc('devgate_getLimits'), auth);
    expect(r.status).toBe(200);
    expect(r.json.result.maxBatch).toBe(1000);
    expect((await post(admin, rpc('devgate_listOutages'), { authorization: `bearer ${gw.adminToken}` })).json.result).toEqual([]);
  });
});

describe('no browser page', () => {
  it('a text/plain POST from another origin: 403 even with the token, and the key keeps its limits', async () => {
    const r = await post(admin, JSON.stringify(LIFT), { ...auth, 'content-type': 'text/plain', origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.json.error.message).toMatch(/Origin header/);
    expect(gw.policy.listKeys().keys[0]).toEqual(KEYS.keys[0]);
    // Origin: null (sandboxed frames, file: pages) and a loopback origin are browsers as well.
    for (const origin of ['null', `http://127.0.0.1:${gw.port}`]) expect((await post(admin, rpc('devgate_listKeys'), { ...auth, origin })).status).toBe(403);
  });

  it('the OPTIONS preflight gets no CORS allow headers', async () => {
    const r = await fetch(admin, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(r.status).toBe(403);
    for (const h of ['access-control-allow-origin', 'access-control-allow-headers', 'access-control-allow-methods']) expect(r.headers.get(h)).toBeNull();
    // Without an Origin there is no preflight to answer either.
    const bare = await fetch(admin, { method: 'OPTIONS', headers: auth });
    expect(bare.status).toBe(405);
    expect(bare.headers.get('access-control-allow-origin')).toBeNull();
    // The networks still answer browsers.
    const net = await fetch(gw.url('alpha'), { method: 'OPTIONS', headers: { origin: 'https://app.example' } });
    expect(net.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a foreign Host (DNS rebinding): 403 even with the token', async () => {
    const body = JSON.stringify(LIFT);
    for (const host of ['evil.example', `evil.example:${gw.port}`, 'localhost.evil.example', '127.0.0.1.evil.example']) {
      const r = await raw('POST', { ...auth, host, 'content-type': 'application/json' }, body);
      expect(r.status, host).toBe(403);
      expect(r.json.error.message).toContain(`got ${JSON.stringify(host)}`);
    }
    expect(gw.policy.listKeys().keys[0]).toEqual(KEYS.keys[0]);
    for (const host of ['localhost', `localhost:${gw.port}`, `alpha.localhost:${gw.port}`, '127.0.0.2', `[::1]:${gw.port}`, '10.0.0.5']) {
      const r = await raw('POST', { ...auth, host, 'content-type': 'application/json' }, JSON.stringify(rpc('devgate_listOutages')));
      expect(r.status, host).toBe(200);
    }
  });

  it('is not reached over a WebSocket upgrade', async () => {
    const r = await refusedUpgrade(`ws://127.0.0.1:${gw.port}/admin`, auth);
    expect(r.status).toBe(404);
  });
});

describe('secrets', () => {
  it('devgate_listKeys and devgate_setKey show a secret as secretSet, never in full', async () => {
    const listed = await post(admin, rpc('devgate_listKeys'), auth);
    expect(listed.text).not.toContain('s3cret');
    expect(listed.json.result.keys).toEqual([KEYS.keys[0], { key: 'server', plan: 'team', secretSet: true }]);
    const set = await post(admin, rpc('devgate_setKey', [{ key: 'other', plan: 'free', secret: 'hunter2' }]), auth);
    expect(set.json.result).toEqual({ key: 'other', plan: 'free', secretSet: true });
    expect(JSON.stringify(gw.policy.listKeys())).not.toMatch(/s3cret|hunter2/);
    await post(admin, rpc('devgate_removeKey', ['other']), auth);
  });
});

describe('where the token comes from', () => {
  it('start({ adminToken }) wins over the keys file, which wins over a made one', async () => {
    const both = await start({ port: 0, chains: [chain('beta')], adminToken: 'from-option', keys: { adminToken: 'from-file' } });
    const file = await start({ port: 0, chains: [chain('gamma')], keys: { adminToken: 'from-file' } });
    try {
      expect(both.adminToken).toBe('from-option');
      expect(file.adminToken).toBe('from-file');
      const url = `http://127.0.0.1:${file.port}/admin`;
      expect((await post(url, rpc('devgate_listOutages'), { authorization: 'Bearer from-file' })).status).toBe(200);
      expect((await post(url, rpc('devgate_listOutages'), { authorization: 'Bearer from-option' })).status).toBe(401);
    } finally {
      await both.stop();
      await file.stop();
    }
  });

  it('a bad token is refused at start, naming the field', async () => {
    await expect(start({ port: 0, chains: [chain('delta')], adminToken: 'has space' })).rejects.toThrow(/adminToken: an admin token is 1 to 256 visible ASCII/);
    await expect(start({ port: 0, chains: [chain('delta')], keys: { adminToken: '' } })).rejects.toThrow(/adminToken/);
  });

  it('reads a Host header as its name', () => {
    expect(hostName('LocalHost:8545')).toBe('localhost');
    expect(hostName('[::1]:8545')).toBe('::1');
    expect(hostName('::1')).toBeUndefined();
    expect(hostName('a:b:c')).toBeUndefined();
    expect(hostName(undefined)).toBeUndefined();
  });
});
