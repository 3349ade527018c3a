/** JSON-RPC 2.0 envelopes over HTTP and WebSocket: singles, batches, notifications and every error case of issue 2. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call, post, WsClient } from '../support/http.js';

const alpha = { name: 'alpha', kind: 'eth', chainId: 1 };
const beta = { name: 'beta', kind: 'eth', chainId: 11155111 };

let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [alpha, beta], maxBatch: 5 });
  url = gw.url('alpha');
});
afterAll(() => gw.stop());

describe('single requests over HTTP', () => {
  it('answers the chain of the network the address names', async () => {
    expect(await call(url, 'eth_chainId')).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1' });
    expect((await call(gw.url('beta'), 'eth_chainId')).result).toBe('0xaa36a7');
    expect((await call(gw.url('beta'), 'net_version')).result).toBe('11155111');
  });

  it('echoes the id exactly: number, string, null', async () => {
    expect((await call(url, 'eth_chainId', [], 42)).id).toBe(42);
    expect((await call(url, 'eth_chainId', [], 'abc')).id).toBe('abc');
    expect((await call(url, 'eth_chainId', [], null)).id).toBe(null);
    expect((await call(url, 'eth_chainId', [], 1.5)).id).toBe(1.5);
  });

  it('names the client and its version', async () => {
    expect((await call(url, 'web3_clientVersion')).result).toMatch(/^anvil\/v1\.7\.1\/devgate\/\d+\.\d+\.\d+/);
  });

  it('rejects a request without jsonrpc "2.0" with -32600', async () => {
    const r = await post(url, { id: 7, method: 'eth_chainId', params: [] });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
    expect((await post(url, { jsonrpc: '1.0', id: 7, method: 'eth_chainId' })).json.error.code).toBe(-32600);
  });

  it('rejects a request with a bad method, params or id with -32600', async () => {
    expect((await post(url, { jsonrpc: '2.0', id: 1, method: 5 })).json.error.code).toBe(-32600);
    expect((await post(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: 'x' })).json.error.code).toBe(-32600);
    const badId = (await post(url, { jsonrpc: '2.0', id: { a: 1 }, method: 'eth_chainId' })).json;
    expect(badId).toMatchObject({ id: null, error: { code: -32600 } });
    expect((await post(url, '"just a string"')).json.error.code).toBe(-32600);
  });

  it('names an unknown method with -32601', async () => {
    expect((await call(url, 'eth_foo')).error).toEqual({ code: -32601, message: 'the method eth_foo does not exist/is not available' });
  });

  it('names the bad argument with -32602', async () => {
    const noPrefix = await call(url, 'eth_getBlockByNumber', ['10', false]);
    expect(noPrefix.error.code).toBe(-32602);
    expect(noPrefix.error.message).toMatch(/^invalid argument 0: /);
    const badFlag = await call(url, 'eth_getBlockByNumber', ['0x0', 'yes']);
    expect(badFlag.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^invalid argument 1: expected a boolean/) });
    const missing = await call(url, 'eth_getBlockByNumber', []);
    expect(missing.error).toMatchObject({ code: -32602, message: 'missing value for required argument 0' });
    const tooMany = await call(url, 'eth_chainId', [1]);
    expect(tooMany.error).toMatchObject({ code: -32602, message: 'too many arguments, want at most 0' });
    const notArray = await call(url, 'eth_getBlockByNumber', { block: '0x0' });
    expect(notArray.error.code).toBe(-32602);
  });

  it('answers a body that is not JSON with -32700 and id null', async () => {
    const r = await post(url, '{"jsonrpc": "2.0", "method": ');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
  });

  it('answers a notification with no body (204)', async () => {
    const r = await post(url, { jsonrpc: '2.0', method: 'eth_chainId', params: [] });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
  });
});

describe('batches over HTTP', () => {
  it('answers every call of a batch in one array, in order, errors included', async () => {
    const r = await post(url, [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'eth_nope' },
      { jsonrpc: '2.0', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 3, method: 'net_version', params: [] },
      42,
    ]);
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x1' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'the method eth_nope does not exist/is not available' } },
      { jsonrpc: '2.0', id: 3, result: '1' },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
    ]);
  });

  it('answers an empty batch with one -32600 error', async () => {
    const r = await post(url, []);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(Array.isArray(r.json)).toBe(false);
  });

  it('rejects a batch over the limit with one clear error', async () => {
    const batch = Array.from({ length: 6 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' }));
    const r = await post(url, batch);
    expect(Array.isArray(r.json)).toBe(false);
    expect(r.json.error.message).toMatch(/batch of 6 requests is over the limit of 5/);
    expect(r.json.error.code).toBe(-32005);
  });

  it('answers a batch of notifications only with an empty 204', async () => {
    const r = await post(url, [
      { jsonrpc: '2.0', method: 'eth_chainId' },
      { jsonrpc: '2.0', method: 'net_version' },
    ]);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
  });
});

describe('the same over WebSocket', () => {
  it('answers singles, batches, errors and keeps the connection open after a bad frame', async () => {
    const ws = await WsClient.open(gw.wsUrl('alpha'));
    try {
      expect(await ws.request({ jsonrpc: '2.0', id: 'a', method: 'eth_chainId' })).toEqual({ jsonrpc: '2.0', id: 'a', result: '0x1' });
      expect(await ws.request('not json')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      expect(await ws.request({ jsonrpc: '2.0', id: 2, method: 'eth_foo' })).toMatchObject({ id: 2, error: { code: -32601 } });
      expect(await ws.request({ jsonrpc: '2.0', id: 3, method: 'eth_getBlockByNumber', params: ['latest', 1] })).toMatchObject({
        id: 3,
        error: { code: -32602, message: expect.stringMatching(/^invalid argument 1/) },
      });
      expect(await ws.request([])).toMatchObject({ id: null, error: { code: -32600 } });
      expect(await ws.request({ id: 4, method: 'eth_chainId' })).toMatchObject({ id: 4, error: { code: -32600 } });
      // A notification gets no answer: the next message is the answer to the request after it.
      ws.socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId' }));
      const batch = await ws.request([
        { jsonrpc: '2.0', id: 5, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 6, method: 'net_version' },
      ]);
      expect(batch).toEqual([
        { jsonrpc: '2.0', id: 5, result: '0x1' },
        { jsonrpc: '2.0', id: 6, result: '1' },
      ]);
      const over = await ws.request(Array.from({ length: 6 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' })));
      expect(over).toMatchObject({ id: null, error: { code: -32005 } });
    } finally {
      ws.close();
    }
  });
});
