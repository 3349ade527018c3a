/**
 * The HTTP half of the gateway: the short path for plain JSON-RPC POSTs on node:http; everything else
 * (other methods, odd bodies, errors, the admin interface) goes to the express app of expressApp.ts,
 * loaded on the first request that needs it (express is ~150 ms of a start).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { responseText } from '../rpc/envelope.js';
import { serveText } from './answer.js';
import { BAD_SECRET, INVALID_KEY, refusalBody } from './replies.js';
import { RouteCache, type Route } from './route.js';
import type { GatewayContext } from './server.js';

/** The path of the admin interface (JSON-RPC, methods `devgate_*`). */
export const ADMIN_PATH = '/admin';

/**
 * The gateway's request handler: a JSON-RPC POST with a plain body (length given, within the limit,
 * not compressed, UTF-8) takes a short path on node:http; everything else goes through express. Both
 * answer alike (status, body, CORS and content headers); express costs ~3x the CPU of a simple read.
 */
export function httpHandler(ctx: GatewayContext): (req: IncomingMessage, res: ServerResponse) => void {
  let app: Promise<(req: IncomingMessage, res: ServerResponse) => void> | undefined;
  const routes = new RouteCache(ctx.names);
  return (req, res) => {
    const route = fastRoute(ctx, routes, req);
    if (route === undefined) {
      app ??= import('./expressApp.js').then((m) => m.httpApp(ctx));
      app.then((handle) => handle(req, res)).catch(() => res.destroy());
      return;
    }
    readBody(req, (text) => serveFast(ctx, route, req, res, text), () => res.destroy());
  };
}

/** The route of a request the short path answers, or undefined for express. Decides before anything is read or counted. */
function fastRoute(ctx: GatewayContext, routes: RouteCache, req: IncomingMessage): RpcRoute | undefined {
  if (req.method !== 'POST') return undefined;
  const h = req.headers;
  if (h['content-length'] === undefined || h['transfer-encoding'] !== undefined) return undefined;
  if (h['content-encoding'] !== undefined && h['content-encoding'].toLowerCase() !== 'identity') return undefined;
  const length = Number(h['content-length']);
  if (!Number.isSafeInteger(length) || length > ctx.limits().maxBodyBytes) return undefined;
  const type = h['content-type'];
  if (type !== undefined && /charset/i.test(type) && !/charset\s*=\s*"?utf-?8"?\s*(;|$)/i.test(type)) return undefined;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path === ADMIN_PATH || path === `${ADMIN_PATH}/`) return undefined;
  const route = routes.resolve(path, h.host);
  return route.kind === 'rpc' && route.transport === 'http' ? route : undefined;
}

type RpcRoute = Extract<Route, { kind: 'rpc' }>;

const CORS_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'X-Devgate-Forwarded' };
const JSON_TYPE = 'application/json; charset=utf-8';

function reply(res: ServerResponse, status: number, type: string, text: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { ...CORS_HEADERS, ...headers, 'Content-Type': `${type}; charset=utf-8`, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Answers at least this long (UTF-16 units) are sent as bytes encoded once; see replyJson. */
const ENCODE_ONCE_FROM = 16_384;

/**
 * A JSON answer with the same headers as `reply`, in the same order, from a flat list (no header object made).
 * A long answer (eth_getLogs, full blocks; often a rope of concatenated pieces) is encoded once and sent as
 * a Buffer: as a string it was scanned for its byte length, then flattened again behind the header and
 * encoded (415 KB: ~1.4 -> ~0.9 ms CPU). A short one stays a string, which node sends in one piece with the header.
 */
function replyJson(res: ServerResponse, status: number, text: string, forwarded: boolean): void {
  const body = text.length >= ENCODE_ONCE_FROM ? Buffer.from(text) : text;
  const length = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.writeHead(
    status,
    forwarded
      ? ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', 'X-Devgate-Forwarded', 'X-Devgate-Forwarded', 'partner', 'Content-Type', JSON_TYPE, 'Content-Length', length]
      : ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', 'X-Devgate-Forwarded', 'Content-Type', JSON_TYPE, 'Content-Length', length],
  );
  res.end(body);
}

/** Reads a whole body as text (a leading BOM dropped); `failed` when the request errors. */
function readBody(req: IncomingMessage, done: (text: string) => void, failed: () => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  req.on('data', (c: Buffer) => {
    if (first === undefined) first = c;
    else (more ??= [first]).push(c);
  });
  req.on('end', () => {
    const text = (more !== undefined ? Buffer.concat(more) : (first ?? EMPTY)).toString('utf8');
    done(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  });
  req.on('error', failed);
}

const EMPTY = Buffer.alloc(0);

/** The same steps as `serve` below, on node:http; anything thrown ends the connection. */
function serveFast(ctx: GatewayContext, route: RpcRoute, req: IncomingMessage, res: ServerResponse, text: string): void {
  try {
    const auth = ctx.policy.authenticate(route.key, req.headers.authorization);
    if (!auth.ok) {
      const r = auth.reason === 'unknown-key' ? INVALID_KEY : BAD_SECRET;
      return reply(res, r.status, 'text/plain', r.text, r.headers);
    }
    if (!ctx.policy.headersAllowed(auth, { origin: req.headers.origin, userAgent: req.headers['user-agent'] })) {
      return replyJson(res, 403, JSON.stringify(refusalBody({ kind: 'allowlist' }, null, 'http').body), false);
    }
    const network = ctx.networks.get(route.network)!;
    const failover = req.headers['enable-failover'];
    const caller = { key: auth.key, secretGiven: auth.secretGiven, failover: failover !== undefined && /^true$/i.test(String(failover)) };
    serveText(text, network, caller, ctx.policy, ctx.limits().maxBatch)
      .then((outcome) => {
        if (outcome.kind === 'refused') {
          const { status, body } = refusalBody(outcome.refusal, outcome.id, 'http');
          return replyJson(res, status, JSON.stringify(body), false);
        }
        if (outcome.response !== undefined) return replyJson(res, 200, responseText(outcome.response), outcome.forwarded);
        res.writeHead(204, outcome.forwarded ? { ...CORS_HEADERS, 'X-Devgate-Forwarded': 'partner' } : CORS_HEADERS);
        res.end();
      })
      .catch(() => res.destroy());
  } catch {
    res.destroy();
  }
}

