/**
 * The HTTP half of the gateway: the short path for plain JSON-RPC POSTs, taken on raw sockets (rawHttp.ts)
 * or on node:http; everything else (other methods, odd bodies, errors, the admin interface) goes to the
 * express app of expressApp.ts, loaded on the first request that needs it (express is ~150 ms of a start).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { responseText } from '../rpc/envelope.js';
import { type Outcome, serveText } from './answer.js';
import { CORS, FORWARDED, headerList, headerObject, JSON_TYPE, TEXT_TYPE } from './headers.js';
import { BAD_SECRET, INVALID_KEY, refusalBody, type TextReply } from './replies.js';
import { RouteCache, type Route } from './route.js';
import type { GatewayContext } from './context.js';

/** The path of the admin interface (JSON-RPC, methods `devgate_*`). */
export { ADMIN_PATH } from './context.js';
import { ADMIN_PATH } from './context.js';

/** What the short path reads of a request, as node:http gives it (header names in lower case). */
export interface RequestHead {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

/** How the short path answers a request: on node:http's ServerResponse or on a raw socket. */
export interface Answerer {
  /** A JSON body with the gateway's CORS and content headers. */
  json(status: number, text: string, forwarded: boolean): void;
  /** A plain-text refusal (a bad key or secret). */
  text(reply: TextReply): void;
  /** No body: every call was a notification. */
  empty(forwarded: boolean): void;
  /** Ends the connection without an answer. */
  fail(): void;
}

/** Takes a request's body text and answers it. */
export type Take = (text: string, out: Answerer) => void;

/** The gateway's HTTP handlers: node:http's request handler, and the raw-socket path's choice per request head. */
export interface HttpHandlers {
  readonly node: (req: IncomingMessage, res: ServerResponse) => void;
  /** How the short path serves a request with this head (which must never change), or undefined when node:http must have it. */
  readonly short: (head: RequestHead) => Take | undefined;
}

/**
 * The gateway's request handlers: a JSON-RPC POST with a plain body (length given, within the limit,
 * not compressed, UTF-8) takes the short path; everything else goes through express. Both answer alike
 * (status, body, CORS and content headers); express costs ~3x the CPU of a simple read.
 */
export function httpHandlers(ctx: GatewayContext): HttpHandlers {
  let app: Promise<(req: IncomingMessage, res: ServerResponse) => void> | undefined;
  const routes = new RouteCache(ctx.names, ctx.bare);
  const node = (req: IncomingMessage, res: ServerResponse): void => {
    if (ctx.explorer?.(req, res) === true) return;
    const route = fastRoute(ctx, routes, req);
    if (route === undefined) {
      app ??= import('./expressApp.js').then((m) => m.httpApp(ctx));
      app.then((handle) => handle(req, res)).catch(() => res.destroy());
      return;
    }
    const out = new NodeAnswerer(res);
    readBody(
      req,
      (text) => serveFast(ctx, route, req.headers, text, out, ctx.policy.pageOf(req.headers)),
      () => res.destroy(),
    );
  };
  // A raw-path head is immutable and repeats (PlainHeads), so its route and whether it is a web page's are worked out
  // once (the gateway's host, which the page check reads, is set before it listens); only the length limit, which the
  // admin interface can change, is checked on every request.
  const headRoutes = new WeakMap<RequestHead, { route: RpcRoute; page: string | undefined } | null>();
  const short = (head: RequestHead): Take | undefined => {
    let known = headRoutes.get(head);
    if (known === undefined) {
      const route = fastRoute(ctx, routes, head, Infinity);
      headRoutes.set(head, (known = route === undefined ? null : { route, page: ctx.policy.pageOf(head.headers) }));
    }
    if (known === null || !withinLimit(ctx, head)) return undefined;
    const { route, page } = known;
    return (text, out) => serveFast(ctx, route, head.headers, text, out, page);
  };
  return { node, short };
}

/**
 * The route of a request the short path answers, or undefined for express. Decides before anything is read or
 * counted. `maxBodyBytes`: the body limit (Infinity: checked apart, by withinLimit).
 */
function fastRoute(ctx: GatewayContext, routes: RouteCache, req: RequestHead, maxBodyBytes = ctx.limits().maxBodyBytes): RpcRoute | undefined {
  if (req.method !== 'POST') return undefined;
  const h = req.headers;
  if (h['content-length'] === undefined || h['transfer-encoding'] !== undefined) return undefined;
  if (h['content-encoding'] !== undefined && h['content-encoding'].toLowerCase() !== 'identity') return undefined;
  const length = Number(h['content-length']);
  if (!Number.isSafeInteger(length) || length > maxBodyBytes) return undefined;
  const type = h['content-type'];
  if (type !== undefined && /charset/i.test(type) && !/charset\s*=\s*"?utf-?8"?\s*(;|$)/i.test(type)) return undefined;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path === ADMIN_PATH || path === `${ADMIN_PATH}/`) return undefined;
  const route = routes.resolve(path, h.host);
  // Versioned paths (`/rpc/v0_9`) go through express, which picks the network's view of that version.
  return route.kind === 'rpc' && route.transport === 'http' && route.rpcVersion === undefined ? route : undefined;
}

type RpcRoute = Extract<Route, { kind: 'rpc' }>;

/** Whether a request's Content-Length is within the body limit (a longer body is express's: 413). */
function withinLimit(ctx: GatewayContext, head: RequestHead): boolean {
  return Number(head.headers['content-length']) <= ctx.limits().maxBodyBytes;
}

const CORS_HEADERS = headerObject(CORS);
const CORS_FORWARDED = headerObject([...CORS, FORWARDED]);
const JSON_LIST = headerList([...CORS, ['Content-Type', JSON_TYPE]]);
const JSON_LIST_FORWARDED = headerList([...CORS, FORWARDED, ['Content-Type', JSON_TYPE]]);

/** Answers at least this long (UTF-16 units) are sent as bytes encoded once; see NodeAnswerer.json. */
export const ENCODE_ONCE_FROM = 16_384;

/** The short path's answers on node:http. */
class NodeAnswerer implements Answerer {
  constructor(private readonly res: ServerResponse) {}

  /**
   * The headers from a flat list (no header object made). A long answer (eth_getLogs, full blocks; often a
   * rope of concatenated pieces) is encoded once and sent as a Buffer: as a string it was scanned for its byte
   * length, then flattened again behind the header and encoded (415 KB: ~1.4 -> ~0.9 ms CPU). A short one
   * stays a string, which node sends in one piece with the header.
   */
  json(status: number, text: string, forwarded: boolean): void {
    const body = text.length >= ENCODE_ONCE_FROM ? Buffer.from(text) : text;
    const length = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    this.res.writeHead(status, [...(forwarded ? JSON_LIST_FORWARDED : JSON_LIST), 'Content-Length', length]);
    this.res.end(body);
  }

  text(r: TextReply): void {
    this.res.writeHead(r.status, { ...CORS_HEADERS, ...r.headers, 'Content-Type': TEXT_TYPE, 'Content-Length': Buffer.byteLength(r.text) });
    this.res.end(r.text);
  }

  empty(forwarded: boolean): void {
    this.res.writeHead(204, forwarded ? CORS_FORWARDED : CORS_HEADERS);
    this.res.end();
  }

  fail(): void {
    this.res.destroy();
  }
}

/** Reads a whole body as text (a leading BOM dropped); `failed` when the request errors. */
function readBody(req: IncomingMessage, done: (text: string) => void, failed: () => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  req.on('data', (c: Buffer) => {
    if (first === undefined) first = c;
    else (more ??= [first]).push(c);
  });
  req.on('end', () => done(withoutBom((more !== undefined ? Buffer.concat(more) : (first ?? EMPTY)).toString('utf8'))));
  req.on('error', failed);
}

/** A body's text without a leading byte order mark. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const EMPTY = Buffer.alloc(0);

/**
 * Key, secret, allowlists, then policy and dispatch of the body; anything thrown ends the connection. `page`: why the
 * request is a web page's (Policy.pageOf of its headers), or undefined.
 */
function serveFast(ctx: GatewayContext, route: RpcRoute, headers: IncomingHttpHeaders, text: string, out: Answerer, page: string | undefined): void {
  try {
    const auth = ctx.policy.authenticate(route.key, headers.authorization);
    if (!auth.ok) {
      out.text(auth.reason === 'unknown-key' ? INVALID_KEY : BAD_SECRET);
      return;
    }
    if (!ctx.policy.headersAllowed(auth, { origin: headers.origin, userAgent: headers['user-agent'] })) {
      out.json(403, JSON.stringify(refusalBody({ kind: 'allowlist' }, null, 'http').body), false);
      return;
    }
    const network = ctx.networks.get(route.network)!;
    const failover = headers['enable-failover'];
    const caller = {
      key: auth.key,
      secretGiven: auth.secretGiven,
      failover: failover !== undefined && /^true$/i.test(String(failover)),
      page,
    };
    // One reaction (not a then and a catch: a promise less per request); answerOutcome catches its own throws.
    serveText(text, network, caller, ctx.policy, ctx.limits()).then(
      (outcome) => answerOutcome(outcome, out),
      () => out.fail(),
    );
  } catch {
    out.fail();
  }
}

/** Writes a served message's outcome; anything thrown ends the connection. */
function answerOutcome(outcome: Outcome, out: Answerer): void {
  try {
    if (outcome.kind === 'refused') {
      const { status, body } = refusalBody(outcome.refusal, outcome.id, 'http');
      out.json(status, JSON.stringify(body), false);
    } else if (outcome.response !== undefined) out.json(200, responseText(outcome.response), outcome.forwarded);
    else out.empty(outcome.forwarded);
  } catch {
    out.fail();
  }
}
