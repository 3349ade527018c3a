/**
 * A browser page never reaches a control surface (issue 25): a request whose Origin is not a loopback origin, or
 * whose Host is a foreign name (DNS rebinding), meets every dev method as -32601 naming why; its reads are served
 * as a hosted gateway serves pages. Clients without an Origin (viem from Node) and this machine's pages keep them.
 */
import { request } from 'node:http';
import { createTestClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';
import { ask, openWs, rpc } from './helpers.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
});
afterAll(() => gw.stop());

/** A POST with a Host header of our choosing (fetch does not let one set it). */
function postWithHost(url: string, host: string, body: unknown): Promise<any> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { host, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const PAGE = /^the method evm_mine does not exist\/is not available: the request .*dev methods answer no web page$/;

describe('dev methods and web pages', () => {
  it('a page of another site gets -32601 for a dev method, and its reads as before', async () => {
    const url = gw.url('sepolia');
    const evil = { origin: 'https://evil.example' };
    const r = await post(url, rpc('evm_mine'), evil);
    expect(r.json.error.code).toBe(-32601);
    expect(r.json.error.message).toMatch(PAGE);
    expect(r.json.error.message).toMatch(/Origin/);
    expect((await post(url, rpc('evm_setAutomine', [false]), { origin: 'null' })).json.error.code).toBe(-32601);
    const batch = await post(url, [rpc('miner_stop', [], 1), rpc('eth_chainId', [], 2)], evil);
    expect(batch.json[0].error.code).toBe(-32601);
    expect(batch.json[1].result).toBe('0xaa36a7');
    expect((await post(url, rpc('eth_blockNumber'), evil)).json.result).toMatch(/^0x/);
    expect((await post(url, rpc('anvil_getAutomine'))).json.result).toBe(true);
  });

  it("this machine's pages (localhost, 127.0.0.0/8, [::1], any port) keep dev methods", async () => {
    for (const origin of ['http://localhost:3000', 'https://127.0.0.1', 'http://127.1.2.3:8080', 'http://[::1]:5173', 'http://app.localhost:3000'])
      expect((await post(gw.url('sepolia'), rpc('anvil_getAutomine'), { origin })).json.result, origin).toBe(true);
  });

  it('a foreign Host (DNS rebinding) gets -32601 for a dev method; loopback names, <network>.localhost and IP addresses do not', async () => {
    const url = gw.url('sepolia');
    const port = new URL(url).port;
    const rebound = await postWithHost(url, `evil.example:${port}`, rpc('evm_mine'));
    expect(rebound.error.code).toBe(-32601);
    expect(rebound.error.message).toMatch(/Host/);
    expect((await postWithHost(url, `evil.example:${port}`, rpc('eth_chainId'))).result).toBe('0xaa36a7');
    for (const host of [`localhost:${port}`, `sepolia.localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `192.168.1.5:${port}`])
      expect((await postWithHost(url, host, rpc('anvil_getAutomine'))).result, host).toBe(true);
  });

  it('over WebSocket, a page of another site gets -32601 for a dev method', async () => {
    const ws = await openWs(gw.wsUrl('sepolia'), { origin: 'https://evil.example' });
    try {
      expect((await ask(ws, rpc('evm_snapshot'))).error.code).toBe(-32601);
      expect((await ask(ws, rpc('eth_chainId'))).result).toBe('0xaa36a7');
    } finally {
      ws.close();
    }
  });

  it('viem from Node (no Origin) reaches dev methods', async () => {
    const client = createTestClient({ mode: 'anvil', transport: http(gw.url('sepolia')) });
    const before = (await post(gw.url('sepolia'), rpc('eth_blockNumber'))).json.result;
    await client.mine({ blocks: 1 });
    expect(BigInt((await post(gw.url('sepolia'), rpc('eth_blockNumber'))).json.result)).toBe(BigInt(before) + 1n);
  });
});
