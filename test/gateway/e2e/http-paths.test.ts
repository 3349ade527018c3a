/**
 * The gateway's two HTTP paths answer alike: a POST with a Content-Length takes the short node:http
 * path, a chunked one goes through express. Same status, body and headers for answers, refused keys,
 * bad secrets and notifications; an oversized body still gets 413.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../src/index.js';
import { readSurfaceSeed } from '../../eth/methods/seed.js';

interface Answer {
  status: number;
  type: string | undefined;
  cors: string | undefined;
  auth: string | undefined;
  body: string;
}

/** POSTs `body` with a Content-Length (short path) or chunked (express). */
function post(url: string, body: string, chunked: boolean, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers, ...(chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            type: res.headers['content-type'],
            cors: res.headers['access-control-allow-origin'],
            auth: res.headers['www-authenticate'],
            body: text,
          }),
        );
      },
    );
    req.on('error', reject);
    if (chunked) {
      req.write(body.slice(0, 5));
      req.end(body.slice(5));
    } else req.end(body);
  });
}

let gw: Gateway;
beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [readSurfaceSeed()],
    keys: {
      keys: [
        { key: 'k1', plan: 'growth' },
        { key: 'k2', plan: 'growth', secret: 's3cret', requireSecret: true },
      ],
    },
    maxBodyBytes: 2_000,
  });
});
afterAll(() => gw?.stop());

describe('HTTP short path and express path', () => {
  const cases: [string, string, string, Record<string, string>?][] = [
    ['a call', 'k1', '{"jsonrpc":"2.0","id":7,"method":"eth_getBlockByNumber","params":["0x1",true]}'],
    ['a batch', 'k1', '[{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"},{"jsonrpc":"2.0","id":2,"method":"nope"}]'],
    ['a parse error', 'k1', '{"jsonrpc":'],
    ['an unknown key', 'nokey', '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}'],
    ['a missing secret', 'k2', '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}'],
    ['a wrong secret', 'k2', '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}', { authorization: 'Basic ' + Buffer.from(':nope').toString('base64') }],
    ['the right secret', 'k2', '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { authorization: 'Basic ' + Buffer.from(':s3cret').toString('base64') }],
    ['a notification', 'k1', '{"jsonrpc":"2.0","method":"eth_blockNumber"}'],
  ];
  it.each(cases)('%s', async (_label, key, body, headers) => {
    const url = gw.url('dev', key);
    const fast = await post(url, body, false, headers);
    const slow = await post(url, body, true, headers);
    expect(fast).toEqual(slow);
    expect(fast.cors).toBe('*');
  });

  it('answers a call with the full result on both paths', async () => {
    const fast = await post(gw.url('dev', 'k1'), '{"jsonrpc":"2.0","id":"a","method":"eth_chainId","params":[]}', false);
    expect(fast.status).toBe(200);
    expect(fast.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(fast.body)).toEqual({ jsonrpc: '2.0', id: 'a', result: '0x539' });
  });

  it('refuses a body over the limit with 413 whatever its framing', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: ['x'.repeat(3_000)] });
    expect((await post(gw.url('dev', 'k1'), big, false)).status).toBe(413);
    expect((await post(gw.url('dev', 'k1'), big, true)).status).toBe(413);
  });
});
