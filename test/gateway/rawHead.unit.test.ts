/** The raw path's head reader: what it reads is what node:http would give; everything else is left to node:http. */
import { describe, expect, it } from 'vitest';
import { MAX_PLAIN_HEAD, readPlainHead } from '../../src/gateway/rawHead.js';

const head = (...lines: string[]) => ['POST /alpha/v3/k?x=1 HTTP/1.1', ...lines].join('\r\n');

describe('readPlainHead', () => {
  it('reads a plain POST: target, lower-case names, values trimmed of spaces and tabs, Connection', () => {
    const h = readPlainHead(
      head('Host: a.localhost:8545', 'content-LENGTH:  12 ', 'Content-Type:\tapplication/json\t', 'X-Other: ignored', 'User-Agent: caf\xe9'),
    );
    expect(h).toEqual({
      method: 'POST',
      url: '/alpha/v3/k?x=1',
      headers: { host: 'a.localhost:8545', 'content-length': '12', 'content-type': 'application/json', 'user-agent': 'caf\xe9' },
      contentLength: 12,
      keepAlive: true,
    });
    expect(readPlainHead(head('Host: x', 'Content-Length: 0', 'Connection: Close'))?.keepAlive).toBe(false);
    expect(readPlainHead(head('Host: x', 'Content-Length: 0', 'Connection: keep-alive'))?.keepAlive).toBe(true);
    expect(readPlainHead(head('Host: x', 'Content-Length: 0', 'Empty:'))?.contentLength).toBe(0);
  });

  it('leaves everything else to node:http', () => {
    const rejected = [
      'GET /alpha/v3/k HTTP/1.1\r\nHost: x\r\nContent-Length: 0',
      'POST /alpha/v3/k HTTP/1.0\r\nHost: x\r\nContent-Length: 0',
      'POST http://x/alpha/v3/k HTTP/1.1\r\nHost: x\r\nContent-Length: 0',
      'POST /a b HTTP/1.1\r\nHost: x\r\nContent-Length: 0',
      'POST /alpha/v3/k HTTP/1.1',
      head('Content-Length: 0'), // no Host
      head('Host: x'), // no length
      head('Host: x', 'Content-Length: 1', 'Transfer-Encoding: chunked'),
      head('Host: x', 'Content-Length: 1', 'Expect: 100-continue'),
      head('Host: x', 'Content-Length: 1', 'Upgrade: websocket'),
      head('Host: x', 'Content-Length: 1', 'Connection: upgrade'),
      head('Host: x', 'Content-Length: 1', 'Content-Length: 1'), // a second one of a header read
      head('Host: x', 'Host: y', 'Content-Length: 1'),
      head('Host: x', 'Content-Length: -1'),
      head('Host: x', 'Content-Length: 1e3'),
      head('Host: x', 'Content-Length: 1', 'Bad Name: v'),
      head('Host: x', 'Content-Length: 1', ' folded'),
      head('Host: x', 'Content-Length: 1', 'NoColon'),
      head('Host: x', 'Content-Length: 1', 'X: a\x00b'),
      head('Host: x', 'Content-Length: 1', 'X: a\nb'),
      head('Host: x', 'Content-Length: 1', ''),
    ];
    for (const h of rejected) expect(readPlainHead(h), JSON.stringify(h)).toBeUndefined();
    expect(MAX_PLAIN_HEAD).toBeGreaterThanOrEqual(4096);
  });
});
