/** The HTTP half of the gateway: routing, key checks, policy and the answer, plus the admin interface. */
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { adminMethods } from '../admin/index.js';
import { answer, failure, parseJson, responseText } from '../rpc/envelope.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import { serveText } from './answer.js';
import { BAD_SECRET, INVALID_KEY, MISSING_KEY, refusalBody, type TextReply } from './replies.js';
import { resolveRoute, RouteCache, type Route } from './route.js';
import type { GatewayContext } from './server.js';

/** The path of the admin interface (JSON-RPC, methods `devgate_*`). */
export const ADMIN_PATH = '/admin';

export function httpApp(ctx: GatewayContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(cors);
  app.use(bodyParser(ctx));
  app.all('/{*path}', (req, res) => void serve(ctx, req, res));
  app.use((err: { type?: string; status?: number }, _req: Request, res: Response, _next: unknown) => {
    if (err.type === 'entity.too.large') {
      const limit = ctx.limits().maxBodyBytes;
      res.status(413).json(failure(null, new RpcError(ErrorCode.LimitExceeded, `request body is over the limit of ${limit} bytes`)));
    } else if (err.status !== undefined && err.status < 500) {
      res.status(err.status).json(failure(null, new RpcError(ErrorCode.InvalidRequest, 'invalid request body')));
    } else {
      res.status(500).json(failure(null, new RpcError(ErrorCode.InternalError, 'internal error')));
    }
  });
  return app;
}

/**
 * The gateway's request handler: a JSON-RPC POST with a plain body (length given, within the limit,
 * not compressed, UTF-8) takes a short path on node:http; everything else goes through express. Both
 * answer alike (status, body, CORS and content headers); express costs ~3x the CPU of a simple read.
 */
export function httpHandler(ctx: GatewayContext): (req: IncomingMessage, res: ServerResponse) => void {
  const app = httpApp(ctx);
  const routes = new RouteCache(ctx.names);
  return (req, res) => {
    const route = fastRoute(ctx, routes, req);
    if (route === undefined) return app(req, res);
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

/** A JSON answer with the same headers as `reply`, in the same order, from a flat list (no header object made). */
function replyJson(res: ServerResponse, status: number, text: string, forwarded: boolean): void {
  const length = String(Buffer.byteLength(text));
  res.writeHead(
    status,
    forwarded
      ? ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', 'X-Devgate-Forwarded', 'X-Devgate-Forwarded', 'partner', 'Content-Type', JSON_TYPE, 'Content-Length', length]
      : ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', 'X-Devgate-Forwarded', 'Content-Type', JSON_TYPE, 'Content-Length', length],
  );
  res.end(text);
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

/**
 * CORS, as a hosted gateway answers browsers: any origin (the origins allowlist is what restricts
 * them), preflights answered with 204.
 */
const cors: RequestHandler = (req, res, next) => {
  res.set('Access-Control-Allow-Origin', '*');
  res.set('Access-Control-Expose-Headers', 'X-Devgate-Forwarded');
  if (req.method !== 'OPTIONS') return next();
  res.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
  res.set('Access-Control-Allow-Headers', 'Content-Type, Authorization, Enable-Failover');
  res.set('Access-Control-Max-Age', '600');
  res.status(204).end();
};

/** A text body parser whose size limit follows the current limits. */
function bodyParser(ctx: GatewayContext): RequestHandler {
  let limit = -1;
  let parser: RequestHandler | undefined;
  return (req, res, next) => {
    const current = ctx.limits().maxBodyBytes;
    if (parser === undefined || current !== limit) {
      limit = current;
      parser = express.text({ type: () => true, limit });
    }
    parser(req, res, next);
  };
}

function sendText(res: Response, reply: TextReply): void {
  res.status(reply.status).set(reply.headers).type('text/plain').send(reply.text);
}

async function serve(ctx: GatewayContext, req: Request, res: Response): Promise<void> {
  if (req.path === ADMIN_PATH || req.path === `${ADMIN_PATH}/`) return serveAdmin(ctx, req, res);
  const route = resolveRoute(req.path, req.headers.host, ctx.names);
  if (route.kind === 'not-found' || route.transport === 'ws') {
    res.status(404).json({ error: 'not found', networks: [...ctx.names].map((n) => `/${n}/v3/<API_KEY>`), admin: ADMIN_PATH });
    return;
  }
  if (route.kind === 'missing-key') return sendText(res, MISSING_KEY);
  if (route.kind === 'invalid-key') return sendText(res, INVALID_KEY);
  const auth = ctx.policy.authenticate(route.key, req.headers.authorization);
  if (!auth.ok) return sendText(res, auth.reason === 'unknown-key' ? INVALID_KEY : BAD_SECRET);
  if (req.method !== 'POST') {
    res.status(405).set('Allow', 'POST').json(failure(null, new RpcError(ErrorCode.InvalidRequest, `method ${req.method} not allowed, use POST`)));
    return;
  }
  if (!ctx.policy.headersAllowed(auth, { origin: req.headers.origin, userAgent: req.headers['user-agent'] })) {
    res.status(403).json(refusalBody({ kind: 'allowlist' }, null, 'http').body);
    return;
  }
  const network = ctx.networks.get(route.network)!;
  const caller = { ...auth, failover: /^true$/i.test(String(req.headers['enable-failover'] ?? '')) };
  const text = typeof req.body === 'string' ? req.body : '';
  const outcome = await serveText(text, network, caller, ctx.policy, ctx.limits().maxBatch);
  if (outcome.kind === 'refused') {
    const { status, body } = refusalBody(outcome.refusal, outcome.id, 'http');
    res.status(status).json(body);
    return;
  }
  if (outcome.forwarded) res.set('X-Devgate-Forwarded', 'partner');
  if (outcome.response === undefined) res.status(204).end();
  else res.status(200).type('application/json').send(responseText(outcome.response));
}

const admin = adminMethods();

async function serveAdmin(ctx: GatewayContext, req: Request, res: Response): Promise<void> {
  if (req.method !== 'POST') {
    res.status(405).set('Allow', 'POST').json(failure(null, new RpcError(ErrorCode.InvalidRequest, `method ${req.method} not allowed, use POST`)));
    return;
  }
  const parsed = parseJson(typeof req.body === 'string' ? req.body : '');
  const response = parsed.ok
    ? await answer(parsed.value, { maxBatch: ctx.limits().maxBatch, execute: (call) => admin.execute(ctx.control, call) })
    : parsed.response;
  if (response === undefined) res.status(204).end();
  else res.status(200).type('application/json').send(JSON.stringify(response));
}
