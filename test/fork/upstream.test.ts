/**
 * The fork's upstream client against a small scripted JSON-RPC server on 127.0.0.1: calls of one tick share a batch
 * request, 5xx and 429 (with Retry-After) and rate-limit errors are retried with backoff, headers are sent, an answer
 * past the byte budget is refused, and every HTTP request is counted.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseHeaders, retryAfterMs, Upstream, UpstreamError } from '../../src/eth/engine/fork/upstream.js';

type Script = (req: IncomingMessage, body: any, res: ServerResponse) => void;
let server: Server;
let url: string;
let script: Script[] = [];
let seen: { headers: IncomingMessage['headers']; body: any; at: number }[] = [];

const answer = (body: any) =>
  Array.isArray(body) ? body.map((c) => ({ jsonrpc: '2.0', id: c.id, result: c.method })) : { jsonrpc: '2.0', id: body.id, result: body.method };
const ok: Script = (_req, body, res) => res.end(JSON.stringify(answer(body)));

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString());
      seen.push({ headers: req.headers, body, at: Date.now() });
      (script.shift() ?? ok)(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  script = [];
  seen = [];
});

describe('fork upstream client', () => {
  it('sends the calls of one tick as one batch and matches replies by id', async () => {
    const up = new Upstream({ url });
    const replies = await Promise.all(['eth_a', 'eth_b', 'eth_c'].map((m) => up.request(m, [])));
    expect(replies).toEqual(['eth_a', 'eth_b', 'eth_c']);
    expect(up.requests).toBe(1);
    expect(up.calls).toBe(3);
    expect(seen[0]!.body).toHaveLength(3);
  });

  it('splits batches at maxBatch', async () => {
    const up = new Upstream({ url, maxBatch: 2 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => up.request(`m${i}`)));
    expect(up.requests).toBe(3);
  });

  it('retries 5xx and a 429 after its Retry-After, then answers', async () => {
    script = [(_q, _b, res) => res.writeHead(503).end('busy'), (_q, _b, res) => res.writeHead(429, { 'retry-after': '0.05' }).end(), ok];
    const up = new Upstream({ url, backoffMs: 1 });
    expect(await up.request('eth_x')).toBe('eth_x');
    expect(up.requests).toBe(3);
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(45);
  });

  it('retries a rate-limit JSON-RPC error (-32005)', async () => {
    script = [(_q, body, res) => res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32005, message: 'limit exceeded' } })), ok];
    const up = new Upstream({ url, backoffMs: 1 });
    expect(await up.request('eth_y')).toBe('eth_y');
    expect(up.requests).toBe(2);
  });

  it('gives up after --fork-retries, naming the upstream and the last failure', async () => {
    script = [(_q, _b, res) => res.writeHead(500).end(), (_q, _b, res) => res.writeHead(502).end(), (_q, _b, res) => res.writeHead(500).end()];
    const up = new Upstream({ url, retries: 1, backoffMs: 1 });
    await expect(up.request('eth_z')).rejects.toThrow(/failed after 2 attempts: HTTP 502/);
    expect(up.requests).toBe(2);
  });

  it('retries an unreachable upstream, then fails with an UpstreamError', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const up = new Upstream({ url: `http://127.0.0.1:${port}/`, retries: 2, backoffMs: 1 });
    const failure = (await up.request('eth_q').catch((e: unknown) => e)) as Error;
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure.message).toMatch(/after 3 attempts.*ECONNREFUSED/);
  });

  it('passes a JSON-RPC error through without retrying', async () => {
    script = [(_q, body, res) => res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'no such method' } }))];
    const up = new Upstream({ url });
    await expect(up.request('eth_nope')).rejects.toThrow(/eth_nope with an error: no such method/);
    expect(up.requests).toBe(1);
  });

  it('sends the fork headers', async () => {
    const up = new Upstream({ url, headers: parseHeaders(['Authorization: Bearer abc', 'X-Key: 1']) });
    await up.request('eth_h');
    expect(seen[0]!.headers.authorization).toBe('Bearer abc');
    expect(seen[0]!.headers['x-key']).toBe('1');
    expect(() => parseHeaders(['no colon'])).toThrow(/not of the form "Name: value"/);
  });

  it('refuses an answer past the byte budget, declared or streamed', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'x'.repeat(5000) });
    script = [
      (_q, _b, res) => res.end(big),
      (_q, _b, res) => {
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        res.write(big.slice(0, 3000));
        res.end(big.slice(3000));
      },
    ];
    const up = new Upstream({ url, maxResponseBytes: 1000 });
    await expect(up.request('eth_big')).rejects.toThrow(/larger than 1000 bytes/);
    await expect(up.request('eth_big')).rejects.toThrow(/larger than 1000 bytes/);
    expect(up.requests).toBe(2);
  });

  it('takes only http(s) URLs, and reads Retry-After in seconds or as a date', () => {
    expect(() => new Upstream({ url: 'ftp://127.0.0.1/' })).toThrow(/not http or https/);
    expect(() => new Upstream({ url: 'nope' })).toThrow(/is not a URL/);
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
