/**
 * A strict reader of the simplest request heads: `POST /<target> HTTP/1.1`, a Host, a Content-Length, no
 * Transfer-Encoding, Expect or Upgrade, every header line plain `Name: value`. Anything it does not read is
 * left to node:http, which answers it as it always did (also the errors: 400, 431, ...).
 */

/** A head the raw-socket path can serve: node:http would give the same method, url and headers. */
export interface PlainHead {
  readonly method: 'POST';
  readonly url: string;
  /** The headers the gateway reads (lower-case names); the others are checked and dropped. */
  readonly headers: Record<string, string>;
  readonly contentLength: number;
  /** False when the client sent `Connection: close`. */
  readonly keepAlive: boolean;
}

/** Heads longer than this (bytes, without the blank line) go to node:http. */
export const MAX_PLAIN_HEAD = 8192;

/** The headers the gateway reads; a second one of these goes to node:http, which knows how to merge or refuse it. */
const READ = new Set(['host', 'content-length', 'content-type', 'content-encoding', 'authorization', 'origin', 'user-agent', 'enable-failover', 'connection']);
/** Headers that change how the request is framed or answered: node:http handles these. */
const HANDED_OVER = new Set(['transfer-encoding', 'expect', 'upgrade', 'http2-settings']);

/** An origin-form request target: printable ASCII, no spaces. */
const TARGET = /^\/[\x21-\x7e]*$/;
/** A header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value: visible characters, spaces and tabs, no leading or trailing whitespace (trimmed before). */
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Reads a head (latin1 text, without the blank line that ends it); undefined when node:http must read it.
 * Header values are latin1 strings, as node:http gives them.
 */
export function readPlainHead(head: string): PlainHead | undefined {
  const lineEnd = head.indexOf('\r\n');
  if (lineEnd < 0) return undefined; // no headers, so no Host: node answers 400
  const line = head.slice(0, lineEnd);
  if (!line.startsWith('POST /') || !line.endsWith(' HTTP/1.1')) return undefined;
  const url = line.slice(5, line.length - 9);
  if (!TARGET.test(url)) return undefined;
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  let keepAlive = true;
  for (let at = lineEnd + 2; at <= head.length; ) {
    let end = head.indexOf('\r\n', at);
    if (end < 0) end = head.length;
    const colon = head.indexOf(':', at);
    if (colon <= at || colon > end) return undefined;
    const name = head.slice(at, colon).toLowerCase();
    const value = trimSpaces(head, colon + 1, end);
    if (!TOKEN.test(name) || !VALUE.test(value)) return undefined;
    at = end + 2;
    if (HANDED_OVER.has(name)) return undefined;
    if (!READ.has(name)) continue;
    if (headers[name] !== undefined) return undefined;
    if (name === 'connection') {
      const v = value.toLowerCase();
      if (v === 'close') keepAlive = false;
      else if (v !== 'keep-alive') return undefined;
    }
    headers[name] = value;
  }
  const length = headers['content-length'];
  if (headers.host === undefined || length === undefined || !/^\d{1,15}$/.test(length)) return undefined;
  return { method: 'POST', url, headers, contentLength: Number(length), keepAlive };
}

/**
 * readPlainHead with its answers remembered: a client sends the same head again and again (only the length
 * changes), and a Map lookup is a fraction of reading it. The heads are shared: callers must not change them.
 */
export class PlainHeads {
  private readonly heads = new Map<string, PlainHead>();

  constructor(private readonly capacity = 512) {}

  read(head: string): PlainHead | undefined {
    let plain = this.heads.get(head);
    if (plain === undefined) {
      plain = readPlainHead(head);
      if (plain === undefined) return undefined;
      if (this.heads.size >= this.capacity) this.heads.clear();
      this.heads.set(head, plain);
    }
    return plain;
  }
}

/** head[from, to) without leading and trailing spaces and tabs (the only whitespace HTTP trims). */
function trimSpaces(head: string, from: number, to: number): string {
  while (from < to && isSpace(head.charCodeAt(from))) from++;
  while (to > from && isSpace(head.charCodeAt(to - 1))) to--;
  return head.slice(from, to);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09;
}
