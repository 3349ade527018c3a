/** Which network and key a request reaches: path prefix, Host header, 401/404/405 answers, WebSocket upgrades. */
import { request } from 'node:http';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call, post } from '../support/http.js';

let gw: Gateway;
let base: string;

beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [
      { name: 'alpha', kind: 'eth', chainId: 1 },
      { name: 'beta', kind: 'eth', chainId: 5 },
    ],
  });
  base = `http://127.0.0.1:${gw.port}`;
});
afterAll(() => gw.stop());

/** A raw HTTP request with a chosen Host header (fetch does not allow setting it). */
function rawPost(path: string, host: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: gw.port, path, method: 'POST', headers: { host, 'content-type': 'application/json' } }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Tries a WebSocket upgrade and gives the HTTP status it was refused with, or 101. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', () => undefined);
  });
}

describe('routing', () => {
  it('reaches a network by path prefix, with any well-formed key', async () => {
    expect((await call(`${base}/beta/v3/abc_DEF-123`, 'eth_chainId')).result).toBe('0x5');
    expect((await call(`${base}/alpha/v3/${'k'.repeat(64)}`, 'eth_chainId')).result).toBe('0x1');
  });

  it('reaches a network by Host header <network>.localhost without the prefix', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
    const r = await rawPost('/v3/somekey', `beta.localhost:${gw.port}`, body);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).result).toBe('0x5');
    expect((await rawPost('/v3/somekey', 'nosuch.localhost', body)).status).toBe(404);
  });

  it('answers a missing key with 401 project id required in the url', async () => {
    for (const path of ['/alpha/v3', '/alpha/v3/']) {
      const r = await post(`${base}${path}`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
      expect(r.status).toBe(401);
      expect(r.text).toMatch(/project id required in the url/);
    }
  });

  it('answers a malformed key with 401 invalid project id', async () => {
    for (const key of ['bad.key', 'k'.repeat(65), 'sp%20ace']) {
      const r = await post(`${base}/alpha/v3/${key}`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
      expect(r.status).toBe(401);
      expect(r.text).toMatch(/invalid project id/);
    }
  });

  it('answers an unknown network or path with 404 listing the networks', async () => {
    // `/` is the bare address (test/gateway/e2e/bare-address.test.ts): its first eth chain, alpha.
    for (const path of ['/gamma/v3/key', '/alpha', '/alpha/v2/key', '/alpha/v3/key/extra']) {
      const r = await post(`${base}${path}`, {});
      expect(r.status).toBe(404);
      expect(r.json.networks).toEqual(['/alpha/v3/<API_KEY>', '/beta/v3/<API_KEY>']);
    }
  });

  it('answers GET on an RPC path with 405', async () => {
    const r = await fetch(gw.url('alpha'));
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });

  it('upgrades WebSockets on /ws/v3/<key> only', async () => {
    expect(await upgradeStatus(gw.wsUrl('alpha'))).toBe(101);
    expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/alpha/ws/v3`)).toBe(401);
    expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/alpha/ws/v3/bad.key`)).toBe(401);
    expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/gamma/ws/v3/key`)).toBe(404);
    expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/alpha/v3/key`)).toBe(404);
  });
});
