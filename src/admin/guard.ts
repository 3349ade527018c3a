/**
 * Who may use the admin interface. It holds every key's limits and can lift them, so it is no web page:
 * - a request that carries an `Origin` header comes from a browser page and is refused (403), preflights too;
 * - a `Host` that is neither a loopback name, an IP address nor the configured host is refused (403): a page
 *   whose DNS name was rebound to 127.0.0.1 sends its own name;
 * - every other request needs the admin token as `Authorization: Bearer <token>` (401), compared in constant time.
 * The in-process handle (`gw.policy`) needs none of this: the process that called start() holds it already.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { plainHex } from '../hex.js';

/** A token made at start when none is given: 32 random bytes as hex. */
export function newAdminToken(): string {
  return plainHex(randomBytes(32));
}

/** Why a request to the admin interface is refused: its HTTP status, a message naming the problem, extra headers. */
export interface AdminRefusal {
  readonly status: 401 | 403;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
}

const NONE: Readonly<Record<string, string>> = {};
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="devgate admin"' };

const BROWSER: AdminRefusal = {
  status: 403,
  message: 'the admin interface does not answer browser pages: a request with an Origin header is refused',
  headers: NONE,
};
const NO_TOKEN: AdminRefusal = {
  status: 401,
  message: 'admin token required: send it as "Authorization: Bearer <token>" (devgate prints it at start; start() gives it as gw.adminToken)',
  headers: CHALLENGE,
};
const BAD_TOKEN: AdminRefusal = { status: 401, message: 'invalid admin token', headers: CHALLENGE };

const BEARER = /^Bearer +([^\s]+) *$/i;

export class AdminGuard {
  private readonly digest: Buffer;
  /** The configured listening host, in lower case, without IPv6 brackets. */
  private readonly host: string;

  constructor(token: string, host: string) {
    this.digest = sha256(token);
    this.host = bare(host.toLowerCase());
  }

  /** Why a request with these headers is refused, or undefined when it may be served. */
  check(headers: IncomingHttpHeaders): AdminRefusal | undefined {
    if (headers.origin !== undefined) return BROWSER;
    const host = hostName(headers.host);
    if (host === undefined || !this.hostAllowed(host)) {
      return {
        status: 403,
        message:
          'the admin interface answers only a loopback Host (localhost, *.localhost, an IP address) or the configured host, ' +
          `got ${JSON.stringify(headers.host ?? null)}`,
        headers: NONE,
      };
    }
    const m = BEARER.exec(headers.authorization ?? '');
    if (m === null) return NO_TOKEN;
    // Equal-length digests: the comparison takes the same time whatever the token's length or content.
    return timingSafeEqual(sha256(m[1]!), this.digest) ? undefined : BAD_TOKEN;
  }

  /** Whether a Host header names this machine (see hostAllowed): the explorer checks it as the admin interface does. */
  allowsHost(header: string | undefined): boolean {
    const host = hostName(header);
    return host !== undefined && this.hostAllowed(host);
  }

  /**
   * localhost and *.localhost (which browsers resolve to loopback themselves), any IP address (a rebound page
   * sends its DNS name, never an address), or the host devgate was told to bind.
   */
  private hostAllowed(name: string): boolean {
    return name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || name === this.host;
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** An IPv6 address without its brackets. */
function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** The name of a Host header (lower case, no port, IPv6 without brackets), or undefined when it is missing or malformed. */
export function hostName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(header);
  return m === null ? undefined : bare(m[1]!.toLowerCase());
}
