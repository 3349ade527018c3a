/**
 * The explorer's routes and its guard (issue 31), over plain HTTP: a browser's GET of `/` (Accept: text/html) or
 * `/explorer...` gets the page; JSON-RPC POSTs and WebSocket upgrades at the same addresses are untouched; the page's
 * data answers no other site (no CORS headers, Cross-Origin-Resource-Policy, Sec-Fetch-Site), no foreign Host (DNS
 * rebinding), and the gateway dashboard's data nobody without the admin token, nor any Origin but its own;
 * `explorer: false` serves none of it.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';
import { ask, basic, openWs, rpc } from '../gateway/helpers.js';

let gw: Gateway;
let off: Gateway;

const KEYS = { open: true, defaultPlan: 'unlimited', keys: [{ key: 'locked', plan: 'team', secret: 'sesame-secret-value' }] };

beforeAll(async () => {
  [gw, off] = await Promise.all([
    start({ port: 0, chains: ['chains/sepolia.json'], keys: KEYS, adminToken: 'explorer-test-token' }),
    start({ port: 0, chains: ['chains/sepolia.json'], explorer: false }),
  ]);
});
afterAll(() => Promise.all([gw?.stop(), off?.stop()]));

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A GET (or HEAD) with headers of our choosing, Host included (fetch does not let one set it). */
function get(g: Gateway, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ hostname: '127.0.0.1', port: g.port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('explorer routes', () => {
  it('serves the page at /explorer, its stable URLs, and at / for a browser (Accept: text/html)', async () => {
    for (const path of [
      '/explorer',
      '/explorer/',
      '/explorer/sepolia/block/3',
      '/explorer/sepolia/tx/0xab',
      '/explorer/sepolia/address/0x01',
      '/explorer/gateway',
    ]) {
      const r = await get(gw, path);
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(r.text, path).toContain('<script type="module" src="/explorer/assets/app.js">');
    }
    const bare = await get(gw, '/', HTML);
    expect(bare.status).toBe(200);
    expect(bare.text).toContain('devgate explorer');
    const head = await get(gw, '/explorer', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('leaves JSON-RPC alone: POSTs at / and at a network, a GET of / without HTML, WebSocket upgrades', async () => {
    expect((await post(`http://127.0.0.1:${gw.port}/`, rpc('eth_chainId'), HTML)).json.result).toBe('0xaa36a7');
    expect((await post(gw.url('sepolia'), rpc('eth_chainId'), HTML)).json.result).toBe('0xaa36a7');
    const plain = await get(gw, '/');
    expect(plain.status).toBe(404);
    expect(JSON.parse(plain.text).error).toBe('not found');
    const ws = await openWs(gw.wsUrl('sepolia'));
    try {
      expect((await ask(ws, rpc('eth_chainId'))).result).toBe('0xaa36a7');
    } finally {
      ws.close();
    }
  });

  it('serves the script, the style and the meta: networks and the ABIs devgate knows', async () => {
    const js = await get(gw, '/explorer/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.text.length).toBeGreaterThan(1000);
    expect((await get(gw, '/explorer/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    const meta = JSON.parse((await get(gw, '/explorer/api/meta')).text);
    expect(meta.networks).toEqual([{ name: 'sepolia', kind: 'eth', chainId: '11155111' }]);
    expect(meta.bare).toBe('sepolia');
    expect(meta.key).toBe('devgate');
    expect(meta.abis.map((a: { name: string }) => a.name)).toEqual(expect.arrayContaining(['Token', 'Reverter', 'Emitter', 'SimpleStore', 'StorageLayout']));
    expect((await get(gw, '/explorer/api/nothing')).status).toBe(404);
  });

  it('answers no other site: no CORS headers, same-origin resource policy, a strict CSP', async () => {
    for (const path of ['/explorer', '/explorer/assets/app.js', '/explorer/api/meta']) {
      const r = await get(gw, path, { origin: 'https://evil.example' });
      expect(r.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(r.headers['cross-origin-resource-policy'], path).toBe('same-origin');
      expect(r.headers['x-content-type-options'], path).toBe('nosniff');
      expect(r.headers['content-security-policy'], path).toMatch(/default-src 'none'.*connect-src 'self'.*frame-ancestors 'none'/);
    }
    const fetched = await get(gw, '/explorer/api/meta', { 'sec-fetch-site': 'cross-site' });
    expect(fetched.status).toBe(403);
    expect(JSON.parse(fetched.text).error).toMatch(/own pages only/);
  });

  it('refuses a foreign Host (DNS rebinding), as the admin interface does', async () => {
    for (const path of ['/explorer', '/explorer/api/meta', '/explorer/api/gateway']) {
      const r = await get(gw, path, { host: `evil.example:${gw.port}`, authorization: 'Bearer explorer-test-token' });
      expect(r.status, path).toBe(403);
      expect(r.text, path).toMatch(/loopback Host/);
    }
    for (const host of [`localhost:${gw.port}`, `sepolia.localhost:${gw.port}`, `127.0.0.1:${gw.port}`])
      expect((await get(gw, '/explorer', { host })).status, host).toBe(200);
  });

  it('gives the dashboard data only with the admin token, to its own origin, and never a secret', async () => {
    expect((await post(gw.url('sepolia', 'locked'), rpc('eth_chainId'), basic('sesame-secret-value'))).json.result).toBe('0xaa36a7');
    const none = await get(gw, '/explorer/api/gateway');
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text).error).toMatch(/admin token required/);
    expect((await get(gw, '/explorer/api/gateway', { authorization: 'Bearer wrong' })).status).toBe(401);
    const token = { authorization: 'Bearer explorer-test-token' };
    const foreign = await get(gw, '/explorer/api/gateway', { ...token, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text).error).toMatch(/explorer's own page only/);
    expect((await get(gw, '/explorer/api/gateway', { ...token, 'sec-fetch-site': 'same-site' })).status).toBe(403);
    const own = await get(gw, '/explorer/api/gateway', { ...token, origin: `http://127.0.0.1:${gw.port}`, host: `127.0.0.1:${gw.port}` });
    expect(own.status).toBe(200);
    expect(own.headers['cache-control']).toBe('no-store');
    expect(own.text).not.toContain('sesame-secret-value');
    const body = JSON.parse(own.text);
    expect(body.keys.keys).toEqual([expect.objectContaining({ key: 'locked', plan: 'team', secretSet: true })]);
    expect(body.usage.find((u: { key: string }) => u.key === 'locked').today.methods.eth_chainId.requests).toBe(1);
    // The admin interface itself still refuses every request with an Origin, its own page's included.
    const admin = await post(`http://127.0.0.1:${gw.port}/admin`, rpc('devgate_listKeys'), { ...token, origin: `http://127.0.0.1:${gw.port}` });
    expect(admin.status).toBe(403);
  });

  it('serves nothing with explorer: false', async () => {
    expect((await get(off, '/explorer')).status).toBe(404);
    expect((await get(off, '/', HTML)).status).toBe(404);
    expect((await get(off, '/explorer/api/meta')).status).toBe(404);
    expect((await post(off.url('sepolia'), rpc('eth_chainId'))).json.result).toBe('0xaa36a7');
  });
});
