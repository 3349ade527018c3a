/**
 * The raw-socket short path in front of node:http: the same bytes as node:http for the same request,
 * pipelining, heads and bodies split across packets, Connection: close, and requests handed to node:http
 * (at the start or in the middle of a connection) with their bytes intact.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { chain } from './helpers.js';

let gw: Gateway;

beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [chain('alpha')],
    keys: {
      open: true,
      defaultPlan: 'growth',
      keys: [
        { key: 'locked', plan: 'team', secret: 'sesame' },
        { key: 'origins', plan: 'team', allowlist: { origins: ['app.example.com'] } },
      ],
    },
  });
});
afterAll(() => gw.stop());

const body = (id: number | string, method = 'eth_chainId') => JSON.stringify({ jsonrpc: '2.0', id, method, params: [] });

/** A request's bytes; `extra` header lines go after Host. */
function post(path: string, text: string, extra: string[] = []): string {
  return [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...extra, 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(text)}`, '', text].join(
    '\r\n',
  );
}

/** A header that makes the head longer than the short path reads, so node:http answers the same request. */
const LONG = `X-Pad: ${'p'.repeat(9000)}`;

interface Answer {
  readonly head: string;
  readonly body: string;
}

/** A raw client: writes pieces (a pause between them) and collects whole HTTP answers (Content-Length framed). */
class Raw {
  private data = Buffer.alloc(0);
  readonly socket: Socket;
  closed = false;
  private wake: (() => void) | undefined;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (c) => {
      this.data = Buffer.concat([this.data, c]);
      this.wake?.();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
    this.socket.on('error', () => {});
  }

  async send(...pieces: string[]): Promise<void> {
    for (let i = 0; i < pieces.length; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 30));
      this.socket.write(pieces[i]!);
    }
  }

  /** The next `n` answers (or fewer if the server closes). */
  async answers(n: number, ms = 5000): Promise<Answer[]> {
    const out: Answer[] = [];
    const deadline = Date.now() + ms;
    while (out.length < n) {
      const a = this.take();
      if (a !== undefined) {
        out.push(a);
        continue;
      }
      if (this.closed || Date.now() > deadline) break;
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, 50);
      });
    }
    return out;
  }

  private take(): Answer | undefined {
    const end = this.data.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = this.data.toString('latin1', 0, end);
    const m = /\r\ncontent-length: (\d+)/i.exec(head);
    const length = m === null ? 0 : Number(m[1]);
    if (this.data.length < end + 4 + length) return undefined;
    const answer = { head, body: this.data.toString('utf8', end + 4, end + 4 + length) };
    this.data = this.data.subarray(end + 4 + length);
    return answer;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** One request on a fresh connection. */
async function once(request: string): Promise<Answer> {
  const c = new Raw(gw.port);
  await c.send(request);
  const [a] = await c.answers(1);
  c.close();
  return a!;
}

const withoutDate = (head: string) => head.replace(/\r\nDate: [^\r]*/, '\r\nDate: -');
const path = () => new URL(gw.url('alpha')).pathname;

describe('the raw-socket short path', () => {
  it('answers with the bytes node:http writes for the same request', async () => {
    const secret = `Authorization: Basic ${Buffer.from(':wrong').toString('base64')}`;
    const cases: [string, string[]][] = [
      [body(1), []],
      [body(2), ['Connection: close']],
      [JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId' }), []], // a notification: 204
      ['{"oops', []],
      ['\ufeff' + body('bom'), []],
    ];
    for (const [text, extra] of cases) {
      const fast = await once(post(path(), text, extra));
      const slow = await once(post(path(), text, [LONG, ...extra]));
      expect(withoutDate(fast.head)).toBe(withoutDate(slow.head));
      expect(fast.body).toBe(slow.body);
    }
    const refusals: [string, string[]][] = [
      ['/alpha/v3/locked', [secret]], // 401 with a Basic challenge
      ['/alpha/v3/origins', ['Origin: https://evil.example']], // 403
    ];
    for (const [p, extra] of refusals) {
      const fast = await once(post(p, body(3), extra));
      const slow = await once(post(p, body(3), [LONG, ...extra]));
      expect(fast.head).toMatch(/^HTTP\/1\.1 40[13] /);
      expect(withoutDate(fast.head)).toBe(withoutDate(slow.head));
      expect(fast.body).toBe(slow.body);
    }
    expect((await once(post(path(), body(1)))).head).toMatch(/\r\nDate: .* GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=65$/);
  });

  it('answers pipelined requests in order, in one connection', async () => {
    const c = new Raw(gw.port);
    await c.send(post(path(), body(1)) + post(path(), body(2, 'eth_blockNumber')) + post(path(), body(3)));
    const got = await c.answers(3);
    expect(got.map((a) => JSON.parse(a.body).id)).toEqual([1, 2, 3]);
    c.close();
  });

  it('reads heads and bodies split across packets', async () => {
    const c = new Raw(gw.port);
    const whole = post(path(), body('split'));
    const bodyAt = whole.indexOf('\r\n\r\n') + 4;
    await c.send(whole.slice(0, 3), whole.slice(3, 20), whole.slice(20, bodyAt - 1), whole.slice(bodyAt - 1, bodyAt + 5), whole.slice(bodyAt + 5));
    await c.send(whole.slice(0, bodyAt + 10), whole.slice(bodyAt + 10) + whole.slice(0, 7), whole.slice(7));
    const got = await c.answers(3);
    expect(got.map((a) => JSON.parse(a.body))).toEqual([
      { jsonrpc: '2.0', id: 'split', result: '0x1' },
      { jsonrpc: '2.0', id: 'split', result: '0x1' },
      { jsonrpc: '2.0', id: 'split', result: '0x1' },
    ]);
    c.close();
  });

  it('reads a long body sent in many pieces', async () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 'long', method: 'eth_getBalance', params: ['0x' + '00'.repeat(20), 'latest'], pad: 'x'.repeat(1 << 20) });
    const request = post(path(), text);
    const pieces: string[] = [];
    for (let at = 0; at < request.length; at += 100_000) pieces.push(request.slice(at, at + 100_000));
    const c = new Raw(gw.port);
    await c.send(...pieces);
    const [fast] = await c.answers(1);
    c.close();
    const slow = await once(post(path(), text, [LONG]));
    expect(fast!.body).toBe(slow.body);
    expect(JSON.parse(fast!.body)).toMatchObject({ id: 'long', result: '0x0' });
  });

  it('honours Connection: close and reads nothing after it', async () => {
    const c = new Raw(gw.port);
    await c.send(post(path(), body(1), ['Connection: close']) + post(path(), body(2)));
    const got = await c.answers(2, 1500);
    expect(got).toHaveLength(1);
    expect(got[0]!.head).toMatch(/\r\nConnection: close$/);
    expect(c.closed).toBe(true);
  });

  it('hands a request node:http must read to it in the middle of a connection, after the answers due', async () => {
    const c = new Raw(gw.port);
    const chunked = [`POST ${path()} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', 'Transfer-Encoding: chunked', '', ''].join('\r\n');
    const b = body(2);
    await c.send(post(path(), body(1)) + chunked + `${b.length.toString(16)}\r\n${b}\r\n`, `0\r\n\r\n${post(path(), body(3))}`);
    const got = await c.answers(3);
    expect(got.map((a) => JSON.parse(a.body).id)).toEqual([1, 2, 3]);
    c.close();
  });

  it('leaves other methods, HTTP/1.0, long heads and bad syntax to node:http', async () => {
    expect((await once(post(path(), body(1), [LONG]))).body).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }));
    const old = await once(post(path(), body(1)).replace('HTTP/1.1', 'HTTP/1.0'));
    expect(old.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(JSON.parse(old.body).result).toBe('0x1');
    const options = await once(`OPTIONS ${path()} HTTP/1.1\r\nHost: x\r\nOrigin: https://a.b\r\nAccess-Control-Request-Method: POST\r\n\r\n`);
    expect(options.head).toMatch(/^HTTP\/1\.1 204 /);
    const bad = await once(`POST ${path()} HTTP/1.1\r\nHost: x\r\nNo colon here\r\nContent-Length: 2\r\n\r\n{}`);
    expect(bad.head).toMatch(/^HTTP\/1\.1 400 /);
    const missingHost = await once(`POST ${path()} HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}`);
    expect(missingHost.head).toMatch(/^HTTP\/1\.1 400 /);
    // The gateway still answers after all that.
    expect(JSON.parse((await once(post(path(), body(4)))).body).result).toBe('0x1');
  });

  it('ends connections still on the short path when the gateway stops', async () => {
    const other = await start({ port: 0, chains: [chain('alpha')] });
    const c = new Raw(other.port);
    await c.send(post('/alpha/v3/devgate', body(1)));
    expect(await c.answers(1)).toHaveLength(1);
    const partial = new Raw(other.port);
    await partial.send('POST /alpha/v3/devgate HTTP/1.1\r\nHost: x\r\n');
    await other.stop();
    await c.answers(1, 1000);
    await partial.answers(1, 1000);
    expect(c.closed && partial.closed).toBe(true);
  });
});
