/**
 * The fork's upstream: JSON-RPC over HTTP to the one URL the fork was given, and no other host. Calls made in the
 * same tick go out as one batch (at most `maxBatch` calls a request), network errors, 5xx and 429 answers are
 * retried with exponential backoff (a 429's or 503's Retry-After is honoured), an answer larger than
 * `maxResponseBytes` is refused, and every HTTP request is counted (the bench and the cache tests read `requests`).
 * Uses Node's global fetch (undici).
 */
import { DevgateError } from '../../../errors.js';

/** What a fork's upstream client is told. */
export interface UpstreamOptions {
  /** The upstream's JSON-RPC URL (http or https). */
  readonly url: string;
  /** Extra HTTP headers sent with every request, e.g. `{ authorization: 'Bearer ...' }`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Retries after the first attempt on network errors, 5xx and 429 (default 5). */
  readonly retries?: number;
  /** The first retry's delay in ms, doubled on each further retry (default 250). */
  readonly backoffMs?: number;
  /** The longest wait between attempts in ms, a Retry-After included (default 10,000). */
  readonly maxBackoffMs?: number;
  /** The largest answer body read, in bytes (default 32 MiB). */
  readonly maxResponseBytes?: number;
  /** The most calls in one batch request (default 100). */
  readonly maxBatch?: number;
  /** An attempt that has not answered after this many ms is aborted and retried (default 30,000). */
  readonly timeoutMs?: number;
}

export const UPSTREAM_DEFAULTS = {
  retries: 5,
  backoffMs: 250,
  maxBackoffMs: 10_000,
  maxResponseBytes: 32 * 1024 * 1024,
  maxBatch: 100,
  timeoutMs: 30_000,
} as const;

/** The upstream failed: unreachable after the retries, an answer too large or malformed, or a JSON-RPC error. */
export class UpstreamError extends DevgateError {
  override name = 'UpstreamError';
  constructor(
    message: string,
    /** The upstream's JSON-RPC error code when it answered with one. */
    readonly rpcCode?: number,
  ) {
    super(message);
  }
}

interface Pending {
  readonly method: string;
  readonly params: unknown[];
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface RpcReply {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string };
}

/** JSON-RPC errors that mean "slow down" (Infura's and Alchemy's limit errors): retried like a 429. */
const RATE_LIMIT_CODES = new Set([429, -32005]);

/** Parses `Name: value` header strings (anvil's --fork-header form) into an object; throws naming a bad one. */
export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = at > 0 ? line.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`fork header "${line}" is not of the form "Name: value"`);
    out[name.toLowerCase()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The wait a Retry-After header asks for, in ms (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Upstream {
  /** HTTP requests sent, retries included. */
  requests = 0;
  /** JSON-RPC calls answered or failed (a batch of n counts n). */
  calls = 0;
  readonly url: string;
  private readonly opts: Required<Omit<UpstreamOptions, 'url' | 'headers'>> & { headers: Record<string, string> };
  private queue: Pending[] = [];
  private nextId = 1;

  constructor(options: UpstreamOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new Error(`fork URL "${options.url}" is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`fork URL "${options.url}" is not http or https`);
    this.url = parsed.toString();
    this.opts = { ...UPSTREAM_DEFAULTS, ...stripUndefined(options), headers: { ...(options.headers ?? {}) } };
  }

  /** One call; calls made in the same tick share a batch request. */
  request<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) queueMicrotask(() => this.flush());
      this.queue.push({ method, params, resolve: resolve as (v: unknown) => void, reject });
    });
  }

  private flush(): void {
    const all = this.queue;
    this.queue = [];
    for (let i = 0; i < all.length; i += this.opts.maxBatch) void this.send(all.slice(i, i + this.opts.maxBatch));
  }

  private async send(calls: Pending[]): Promise<void> {
    const ids = calls.map(() => this.nextId++);
    const body =
      calls.length === 1
        ? JSON.stringify({ jsonrpc: '2.0', id: ids[0], method: calls[0]!.method, params: calls[0]!.params })
        : JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: ids[i], method: c.method, params: c.params })));
    let replies: RpcReply[];
    try {
      replies = await this.post(body, calls.length);
    } catch (e) {
      this.calls += calls.length;
      for (const c of calls) c.reject(e as Error);
      return;
    }
    const byId = new Map<unknown, RpcReply>();
    for (const r of replies) if (r !== null && typeof r === 'object') byId.set(r.id, r);
    this.calls += calls.length;
    calls.forEach((c, i) => {
      const r = byId.get(ids[i]);
      if (r === undefined) c.reject(new UpstreamError(`the fork upstream answered no reply to ${c.method}`));
      else if (r.error != null)
        c.reject(new UpstreamError(`the fork upstream answered ${c.method} with an error: ${r.error.message ?? 'no message'}`, r.error.code));
      else if (!('result' in r)) c.reject(new UpstreamError(`the fork upstream's reply to ${c.method} has no result`));
      else c.resolve(r.result);
    });
  }

  /** POSTs one body, retrying per the options, and gives the replies as an array. */
  private async post(body: string, expected: number): Promise<RpcReply[]> {
    const { retries, backoffMs, maxBackoffMs } = this.opts;
    let lastError = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      let wait = Math.min(maxBackoffMs, backoffMs * 2 ** attempt);
      this.requests++;
      const outcome = await this.attempt(body);
      if ('replies' in outcome) {
        const replies = Array.isArray(outcome.replies) ? outcome.replies : [outcome.replies];
        const limited = replies.find((r) => r?.error?.code !== undefined && RATE_LIMIT_CODES.has(r.error.code));
        if (limited === undefined || expected === 0) return replies;
        lastError = `rate limited (${limited.error?.code}: ${limited.error?.message ?? ''})`;
      } else {
        if (outcome.fatal) throw new UpstreamError(outcome.error);
        lastError = outcome.error;
        if (outcome.retryAfter !== undefined) wait = Math.min(maxBackoffMs, outcome.retryAfter);
      }
      if (attempt < retries) await sleep(wait);
    }
    throw new UpstreamError(`the fork upstream ${this.url} failed after ${retries + 1} attempts: ${lastError}`);
  }

  private async attempt(body: string): Promise<{ replies: RpcReply | RpcReply[] } | { error: string; fatal: boolean; retryAfter?: number }> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.opts.timeoutMs);
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { ...this.opts.headers, 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal: abort.signal,
        redirect: 'error',
      });
      if (res.status === 429 || res.status >= 500) {
        await res.body?.cancel();
        return { error: `HTTP ${res.status}`, fatal: false, retryAfter: retryAfterMs(res.headers.get('retry-after')) };
      }
      const text = await readLimited(res, this.opts.maxResponseBytes);
      if (text === undefined) return { error: `an answer larger than ${this.opts.maxResponseBytes} bytes (the fork's answer byte budget)`, fatal: true };
      if (!res.ok) return { error: `HTTP ${res.status}: ${text.slice(0, 200)}`, fatal: true };
      try {
        return { replies: JSON.parse(text) };
      } catch {
        return { error: `an answer that is not JSON: ${text.slice(0, 200)}`, fatal: true };
      }
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      return {
        error: abort.signal.aborted ? `no answer within ${this.opts.timeoutMs} ms` : `${(e as Error).message}${cause ? ` (${cause})` : ''}`,
        fatal: false,
      };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The body as text, or undefined when it passes `limit` bytes (reading stops there). */
async function readLimited(res: Response, limit: number): Promise<string | undefined> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await res.body?.cancel();
    return undefined;
  }
  if (res.body === null) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
