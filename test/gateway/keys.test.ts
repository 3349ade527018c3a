/** Keys, secrets and allowlists over HTTP and WebSocket: 401 and 403 with the hosted gateway's exact bodies. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';
import { ask, basic, chain, closeCode, openWs, refusedUpgrade, rpc } from './helpers.js';

const A = '0x' + 'aa'.repeat(20);
const B = '0x' + 'bb'.repeat(20);
const FORBIDDEN = { jsonrpc: '2.0', error: { code: -32002, message: 'rejected due to project ID settings' } };

let gw: Gateway;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'devgate-keys-'));
  const file = join(dir, 'keys.json');
  writeFileSync(
    file,
    JSON.stringify({
      keys: [
        { key: 'plain', plan: 'free' },
        { key: 'locked', plan: 'team', secret: 'sesame' },
        { key: 'optional', plan: 'team', secret: 'sesame', requireSecret: false, allowlist: { methods: ['eth_chainId'] } },
        { key: 'methods', plan: 'team', allowlist: { methods: ['eth_chainId', 'net_version'] } },
        { key: 'origins', plan: 'team', allowlist: { origins: ['*.example.com', 'https://exact.org'] } },
        { key: 'agents', plan: 'team', allowlist: { userAgents: ['Android', 'devgate-test'] } },
        { key: 'combo', plan: 'team', allowlist: { origins: ['app.example.com'], methods: ['eth_chainId'] } },
        { key: 'contracts', plan: 'team', allowlist: { contracts: [A] } },
      ],
    }),
  );
  gw = await start({ port: 0, chains: [chain('alpha')], keys: file });
});
afterAll(async () => {
  await gw.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('keys and secrets', () => {
  it('answers an unknown key with 401 invalid project id and a Basic challenge', async () => {
    const r = await post(gw.url('alpha', 'nosuchkey'), rpc('eth_chainId'));
    expect(r.status).toBe(401);
    expect(r.text.trim()).toBe('invalid project id');
    expect(r.headers.get('www-authenticate')).toBe('Basic realm="Auth failure, invalid project id"');
    const ws = await refusedUpgrade(gw.wsUrl('alpha', 'nosuchkey'));
    expect(ws.status).toBe(401);
    expect(ws.body.trim()).toBe('invalid project id');
    expect(ws.headers['www-authenticate']).toBe('Basic realm="Auth failure, invalid project id"');
  });

  it('serves a listed key', async () => {
    const r = await post(gw.url('alpha', 'plain'), rpc('eth_chainId'));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1' });
  });

  it('wants the secret of a key that requires it, as Basic auth with an empty user', async () => {
    const url = gw.url('alpha', 'locked');
    for (const headers of [{}, basic('wrong'), { authorization: 'Bearer sesame' }]) {
      const r = await post(url, rpc('eth_chainId'), headers);
      expect(r.status).toBe(401);
      expect(r.text.trim()).toBe('invalid project id or project secret');
    }
    const ok = await post(url, rpc('eth_chainId'), basic('sesame'));
    expect(ok.status).toBe(200);
    expect(ok.json.result).toBe('0x1');

    const wsUrl = gw.wsUrl('alpha', 'locked');
    expect(await refusedUpgrade(wsUrl)).toMatchObject({ status: 401, body: 'invalid project id or project secret\n' });
    expect((await refusedUpgrade(wsUrl, basic('wrong'))).status).toBe(401);
    const ws = await openWs(wsUrl, basic('sesame'));
    expect(await ask(ws, rpc('net_version'))).toEqual({ jsonrpc: '2.0', id: 1, result: '1' });
    ws.close();
  });

  it('lets a request with the secret past the allowlists of a key whose secret is optional', async () => {
    const url = gw.url('alpha', 'optional');
    expect((await post(url, rpc('eth_chainId'))).status).toBe(200);
    expect((await post(url, rpc('net_version'))).status).toBe(403);
    expect((await post(url, rpc('net_version'), basic('sesame'))).status).toBe(200);
    expect((await post(url, rpc('net_version'), basic('nope'))).status).toBe(401);
  });
});

describe('allowlists over HTTP', () => {
  it('rejects a method not listed with 403 and the exact body', async () => {
    const url = gw.url('alpha', 'methods');
    expect((await post(url, rpc('net_version'))).json).toEqual({ jsonrpc: '2.0', id: 1, result: '1' });
    const r = await post(url, rpc('eth_blockNumber'));
    expect(r.status).toBe(403);
    expect(r.text).toBe(JSON.stringify(FORBIDDEN));
    // One call not allowed rejects the whole batch.
    expect((await post(url, [rpc('eth_chainId', [], 1), rpc('eth_blockNumber', [], 2)])).status).toBe(403);
    expect((await post(url, [rpc('eth_chainId', [], 1), rpc('net_version', [], 2)])).status).toBe(200);
  });

  it('checks the Origin header, with wildcards and schemes', async () => {
    const url = gw.url('alpha', 'origins');
    const status = async (origin?: string) => (await post(url, rpc('eth_chainId'), origin === undefined ? {} : { origin })).status;
    expect(await status('https://app.example.com')).toBe(200);
    expect(await status('http://deep.app.example.com')).toBe(200);
    expect(await status('https://exact.org')).toBe(200);
    expect(await status('http://exact.org')).toBe(403);
    expect(await status('https://example.com')).toBe(403);
    expect(await status('https://evil.com')).toBe(403);
    expect(await status(undefined)).toBe(403);
  });

  it('matches user agents by substring', async () => {
    const url = gw.url('alpha', 'agents');
    expect((await post(url, rpc('eth_chainId'), { 'user-agent': 'Mozilla/5.0 (Linux; Android 14)' })).status).toBe(200);
    expect((await post(url, rpc('eth_chainId'), { 'user-agent': 'devgate-test/1.0' })).status).toBe(200);
    expect((await post(url, rpc('eth_chainId'), { 'user-agent': 'curl/8.5' })).status).toBe(403);
  });

  it('ANDs the kinds: origin and method must both pass', async () => {
    const url = gw.url('alpha', 'combo');
    const origin = { origin: 'https://app.example.com' };
    expect((await post(url, rpc('eth_chainId'), origin)).status).toBe(200);
    expect((await post(url, rpc('net_version'), origin)).status).toBe(403);
    expect((await post(url, rpc('eth_chainId'), { origin: 'https://other.example.com' })).status).toBe(403);
    expect((await post(url, rpc('eth_chainId'))).status).toBe(403);
  });

  it('checks the addresses the address-taking methods query', async () => {
    const url = gw.url('alpha', 'contracts');
    const status = async (method: string, params: unknown[]) => (await post(url, rpc(method, params))).status;
    expect(await status('eth_getBalance', [A, 'latest'])).toBe(200);
    expect((await post(url, rpc('eth_getBalance', [A, 'latest']))).json.result).toBe('0x0');
    expect((await post(url, rpc('eth_getCode', [A, 'latest']))).json.result).toBe('0x');
    expect(await status('eth_getBalance', [B, 'latest'])).toBe(403);
    expect(await status('eth_getCode', [B, 'latest'])).toBe(403);
    expect(await status('eth_getStorageAt', [A, '0x0', 'latest'])).toBe(200);
    expect(await status('eth_getTransactionCount', [B, 'latest'])).toBe(403);
    expect(await status('eth_call', [{ to: A, data: '0x' }, 'latest'])).toBe(200);
    expect(await status('eth_call', [{ to: B, data: '0x' }, 'latest'])).toBe(403);
    expect(await status('eth_estimateGas', [{ from: A }])).toBe(403);
    expect(await status('eth_getLogs', [{ address: A }])).toBe(200);
    expect(await status('eth_getLogs', [{ address: [A, B] }])).toBe(403);
    expect(await status('eth_getLogs', [{ fromBlock: '0x0' }])).toBe(403);
    // Methods without an address are not affected.
    expect(await status('eth_blockNumber', [])).toBe(200);
  });

  it('charges nothing for a rejected request', async () => {
    gw.policy.resetUsage('methods');
    await post(gw.url('alpha', 'methods'), rpc('eth_blockNumber'));
    const usage = gw.policy.getUsage('methods');
    expect(usage.total.credits).toBe(0);
    expect(usage.rejected.allowlist).toBe(1);
  });
});

describe('allowlists over WebSocket', () => {
  it('checks Origin and User-Agent on the upgrade', async () => {
    const refused = await refusedUpgrade(gw.wsUrl('alpha', 'origins'), { origin: 'https://evil.com' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual(FORBIDDEN);
    expect((await refusedUpgrade(gw.wsUrl('alpha', 'agents'), { 'user-agent': 'curl/8.5' })).status).toBe(403);
    const ws = await openWs(gw.wsUrl('alpha', 'origins'), { origin: 'https://app.example.com' });
    expect((await ask(ws, rpc('eth_chainId'))).result).toBe('0x1');
    ws.close();
  });

  it('answers a method or contract not allowed with -32002 in the message and stays open', async () => {
    const ws = await openWs(gw.wsUrl('alpha', 'methods'));
    expect(await ask(ws, rpc('eth_blockNumber', [], 7))).toEqual({ jsonrpc: '2.0', id: 7, error: FORBIDDEN.error });
    expect(await ask(ws, rpc('eth_chainId', [], 8))).toEqual({ jsonrpc: '2.0', id: 8, result: '0x1' });
    ws.close();
    const wc = await openWs(gw.wsUrl('alpha', 'contracts'));
    expect((await ask(wc, rpc('eth_getBalance', [B, 'latest']))).error).toEqual(FORBIDDEN.error);
    expect(await ask(wc, rpc('eth_getBalance', [A, 'latest']))).toEqual({ jsonrpc: '2.0', id: 1, result: '0x0' });
    wc.close();
  });
});

describe('changes while connected', () => {
  it('applies a changed key to an open WebSocket, and closes it when the key is removed', async () => {
    gw.policy.setKey({ key: 'temp', plan: 'team' });
    const ws = await openWs(gw.wsUrl('alpha', 'temp'));
    expect((await ask(ws, rpc('net_version'))).result).toBe('1');
    gw.policy.setKey({ key: 'temp', plan: 'team', allowlist: { methods: ['eth_chainId'] } });
    expect((await ask(ws, rpc('net_version'))).error).toEqual(FORBIDDEN.error);
    gw.policy.removeKey('temp');
    const closing = closeCode(ws);
    ws.send(JSON.stringify(rpc('eth_chainId')));
    expect(await closing).toBe(1008);
  });
});

describe('browsers', () => {
  it('answers CORS preflights and lets pages read the answer and the forwarding header', async () => {
    const pre = await fetch(gw.url('alpha', 'plain'), {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,enable-failover' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Enable-Failover/);
    const r = await post(gw.url('alpha', 'plain'), rpc('eth_chainId'), { origin: 'https://app.example.com' });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-expose-headers')).toBe('X-Devgate-Forwarded');
  });
});
