/** The express half of the HTTP gateway: every request the short path of http.ts does not take, and the admin interface. */
import express, { type Request, type RequestHandler, type Response } from 'express';
import { adminMethods } from '../admin/index.js';
import { answer, failure, parseJson, responseText } from '../rpc/envelope.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import { serveText } from './answer.js';
import { ADMIN_PATH } from './context.js';
import { CORS, FORWARDED, headerObject, PREFLIGHT } from './headers.js';
import { BAD_SECRET, INVALID_KEY, MISSING_KEY, refusalBody, type TextReply } from './replies.js';
import { resolveRoute } from './route.js';
import { networkFor } from './versioned.js';
import type { GatewayContext } from './context.js';

export function httpApp(ctx: GatewayContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use((req, res, next) => (isAdmin(req) ? guardAdmin(ctx, req, res, next) : cors(req, res, next)));
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

const CORS_OBJECT = headerObject(CORS);
const PREFLIGHT_OBJECT = headerObject(PREFLIGHT);

/**
 * CORS (headers.ts), as a hosted gateway answers browsers: any origin (the origins allowlist is what restricts
 * them), preflights answered with 204. Not for the admin interface, which answers no browser (guardAdmin).
 */
const cors: RequestHandler = (req, res, next) => {
  res.set(CORS_OBJECT);
  if (req.method !== 'OPTIONS') return next();
  res.set(PREFLIGHT_OBJECT);
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

const isAdmin = (req: Request): boolean => req.path === ADMIN_PATH || req.path === `${ADMIN_PATH}/`;

/**
 * The admin interface answers no browser page (no CORS headers, not even on a preflight) and no one without its
 * token (admin/guard.ts); checked before the body is read.
 */
function guardAdmin(ctx: GatewayContext, req: Request, res: Response, next: () => void): void {
  const refusal = ctx.admin.check(req.headers);
  if (refusal === undefined) {
    next();
    return;
  }
  res
    .status(refusal.status)
    .set(refusal.headers)
    .json(failure(null, new RpcError(ErrorCode.Rejected, refusal.message)));
}

async function serve(ctx: GatewayContext, req: Request, res: Response): Promise<void> {
  if (isAdmin(req)) return serveAdmin(ctx, req, res);
  const route = resolveRoute(req.path, req.headers.host, ctx.names, ctx.bare);
  // The bare address answers JSON-RPC POSTs only: a GET there (a browser's page) is kept for a later explorer.
  if (route.kind === 'not-found' || route.transport === 'ws' || (route.kind === 'rpc' && route.bare === true && req.method !== 'POST')) {
    res.status(404).json({ error: 'not found', networks: [...ctx.names].map((n) => `/${n}/v3/<API_KEY>`), admin: ADMIN_PATH });
    return;
  }
  if (route.kind === 'missing-key') return sendText(res, MISSING_KEY);
  if (route.kind === 'invalid-key') return sendText(res, INVALID_KEY);
  const auth = ctx.policy.authenticate(route.key, req.headers.authorization);
  if (!auth.ok) return sendText(res, auth.reason === 'unknown-key' ? INVALID_KEY : BAD_SECRET);
  if (req.method !== 'POST') {
    res
      .status(405)
      .set('Allow', 'POST')
      .json(failure(null, new RpcError(ErrorCode.InvalidRequest, `method ${req.method} not allowed, use POST`)));
    return;
  }
  if (!ctx.policy.headersAllowed(auth, { origin: req.headers.origin, userAgent: req.headers['user-agent'] })) {
    res.status(403).json(refusalBody({ kind: 'allowlist' }, null, 'http').body);
    return;
  }
  const network = networkFor(ctx.networks.get(route.network)!, route);
  if (network === undefined) {
    res.status(404).json({ error: `not found: ${route.network} does not serve RPC version ${route.rpcVersion}` });
    return;
  }
  const caller = { ...auth, failover: /^true$/i.test(String(req.headers['enable-failover'] ?? '')), page: ctx.policy.pageOf(req.headers) };
  const text = typeof req.body === 'string' ? req.body : '';
  const outcome = await serveText(text, network, caller, ctx.policy, ctx.limits());
  if (outcome.kind === 'refused') {
    const { status, body } = refusalBody(outcome.refusal, outcome.id, 'http');
    res.status(status).json(body);
    return;
  }
  if (outcome.forwarded) res.set(FORWARDED[0], FORWARDED[1]);
  if (outcome.response === undefined) res.status(204).end();
  else res.status(200).type('application/json').send(responseText(outcome.response));
}

const admin = adminMethods();

async function serveAdmin(ctx: GatewayContext, req: Request, res: Response): Promise<void> {
  if (req.method !== 'POST') {
    res
      .status(405)
      .set('Allow', 'POST')
      .json(failure(null, new RpcError(ErrorCode.InvalidRequest, `method ${req.method} not allowed, use POST`)));
    return;
  }
  const parsed = parseJson(typeof req.body === 'string' ? req.body : '');
  const response = parsed.ok
    ? await answer(parsed.value, { maxBatch: ctx.limits().maxBatch, execute: (call) => admin.execute(ctx.control, call) })
    : parsed.response;
  if (response === undefined) res.status(204).end();
  else res.status(200).type('application/json').send(JSON.stringify(response));
}
