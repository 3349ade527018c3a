/** The gateway's own answers: refused keys and secrets, allowlist rejections, rate limits, outages. */
import type { RpcId } from '../rpc/envelope.js';
import { ErrorCode } from '../rpc/errors.js';
import type { Refusal } from './policy/index.js';

/** An HTTP answer with a plain-text body. */
export interface TextReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

function unauthorized(text: string): TextReply {
  return { status: 401, headers: { 'WWW-Authenticate': `Basic realm="Auth failure, ${text}"` }, text: `${text}\n` };
}

export const MISSING_KEY: TextReply = { status: 401, headers: {}, text: 'project id required in the url\n' };
export const INVALID_KEY = unauthorized('invalid project id');
export const BAD_SECRET = unauthorized('invalid project id or project secret');
export const FORBIDDEN_TEXT = 'rejected due to project ID settings';

/** Where a rate-limited client can read about limits. */
export const LIMITS_DOC = 'docs/limits.md';

/** The HTTP status and JSON-RPC body of a refused request; `id` is the request's (null for a batch). */
export function refusalBody(refusal: Refusal, id: RpcId, transport: 'http' | 'ws'): { status: number; body: object } {
  switch (refusal.kind) {
    case 'allowlist': {
      const error = { code: ErrorCode.Rejected, message: FORBIDDEN_TEXT };
      // Over HTTP the hosted gateway answers without an id; a WebSocket client needs it to match the answer.
      return { status: 403, body: transport === 'http' ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error } };
    }
    case 'rate': {
      const rate = { allowed_rps: refusal.allowed, current_rps: refusal.current, backoff_seconds: refusal.backoffSeconds };
      const error = { code: ErrorCode.LimitExceeded, message: 'project ID request rate exceeded', data: { rate, see: LIMITS_DOC } };
      return { status: 429, body: { jsonrpc: '2.0', id, error } };
    }
    case 'daily':
      return {
        status: 429,
        body: { jsonrpc: '2.0', id, error: { code: ErrorCode.LimitExceeded, message: 'daily request count exceeded, request rate limited' } },
      };
    case 'outage':
      return { status: 503, body: { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'service temporarily unavailable' } } };
  }
}
