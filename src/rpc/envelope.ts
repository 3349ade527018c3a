/**
 * JSON-RPC 2.0 envelopes: single requests, batches and notifications, the same for HTTP and
 * WebSocket. What runs a call is given by the caller (the gateway), so policy can sit in between.
 */
import { ErrorCode, RpcError } from './errors.js';
import { jsonText } from './rawJson.js';

export type RpcId = string | number | null;

/** A request that passed envelope validation. `id` is undefined for a notification. */
export interface RpcCall {
  readonly id: RpcId | undefined;
  readonly method: string;
  readonly params: unknown;
}

export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: { code: number; message: string; data?: unknown } };

export function success(id: RpcId, result: unknown): RpcResponse {
  return { jsonrpc: '2.0', id, result };
}

export function failure(id: RpcId, error: RpcError): RpcResponse {
  return { jsonrpc: '2.0', id, error: error.toJSON() };
}

/**
 * The JSON text of a response or batch of responses, as JSON.stringify would write it (same key order),
 * with a RawJson result spliced in as is.
 */
export function responseText(response: RpcResponse | readonly RpcResponse[]): string {
  if (!Array.isArray(response)) return oneResponseText(response as RpcResponse);
  let text = '[';
  for (let i = 0; i < response.length; i++) text += (i === 0 ? '' : ',') + oneResponseText(response[i]!);
  return text + ']';
}

function oneResponseText(r: RpcResponse): string {
  if (!('result' in r) || r.result === undefined || r.id === undefined) return JSON.stringify(r);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(r.id)},"result":${jsonText(r.result)}}`;
}

/** Parses a JSON text; a parse failure is the -32700 response. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; response: RpcResponse } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: failure(null, new RpcError(ErrorCode.ParseError, 'parse error')) };
  }
}

/** Checks one element of a request (or batch) against JSON-RPC 2.0. */
export function validateCall(value: unknown): { ok: true; call: RpcCall } | { ok: false; response: RpcResponse } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, response: failure(null, new RpcError(ErrorCode.InvalidRequest, 'invalid request: expected a JSON-RPC request object')) };
  }
  const req = value as Record<string, unknown>;
  const rawId = req.id;
  const idValid = rawId === undefined || rawId === null || typeof rawId === 'string' || typeof rawId === 'number';
  const id: RpcId = idValid ? ((rawId ?? null) as RpcId) : null;
  const invalid = (message: string) => ({ ok: false as const, response: failure(id, new RpcError(ErrorCode.InvalidRequest, message)) });
  if (!idValid) return invalid('invalid request: id must be a string, a number or null');
  if (req.jsonrpc !== '2.0') return invalid('invalid request: jsonrpc must be "2.0"');
  if (typeof req.method !== 'string' || req.method === '') return invalid('invalid request: method must be a non-empty string');
  const params = req.params;
  if (params !== undefined && params !== null && typeof params !== 'object') return invalid('invalid request: params must be an array or an object');
  return { ok: true, call: { id: 'id' in req ? (rawId as RpcId) : undefined, method: req.method, params } };
}

export interface EnvelopeOptions {
  /** Most calls in one batch (default 1,000). */
  readonly maxBatch: number;
  /** Runs one validated call and gives its response (or its error as a response). */
  readonly execute: (call: RpcCall) => Promise<RpcResponse>;
}

/** A parsed message checked against the envelope: answered by the envelope alone, or its calls (each valid or not). */
export type CheckedMessage =
  | { readonly kind: 'answered'; readonly response: RpcResponse }
  | { readonly kind: 'calls'; readonly batch: boolean; readonly items: readonly ReturnType<typeof validateCall>[] };

/** Checks a parsed message: an empty or oversized batch is answered at once, else every call is validated (once). */
export function checkMessage(message: unknown, maxBatch: number): CheckedMessage {
  if (!Array.isArray(message)) return { kind: 'calls', batch: false, items: [validateCall(message)] };
  if (message.length === 0) return { kind: 'answered', response: failure(null, new RpcError(ErrorCode.InvalidRequest, 'empty batch')) };
  if (message.length > maxBatch) {
    return {
      kind: 'answered',
      response: failure(null, new RpcError(ErrorCode.LimitExceeded, `batch of ${message.length} requests is over the limit of ${maxBatch}`)),
    };
  }
  return { kind: 'calls', batch: true, items: message.map(validateCall) };
}

/**
 * Work a batch may do between two turns of the event loop (ms): its calls run one after another, and after each call
 * that ends past this much time since the last turn, the batch waits for one (setImmediate), so other clients' requests
 * are answered between its calls (issue 25: a batch of 1,000 eth_sendRawTransaction held every network for 4.1 s).
 */
export const BATCH_SLICE_MS = 1;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs the calls of a checked message, one after another in order, yielding to the event loop between calls every
 * BATCH_SLICE_MS of work. Returns undefined when nothing is to be sent back (a notification, or a batch of
 * notifications only). A single call's answer is the promise `execute` gives (no async wrapper of its own: two
 * promises and their microtask turns less on every request).
 */
export function answerChecked(checked: CheckedMessage, execute: (call: RpcCall) => Promise<RpcResponse>): Promise<RpcResponse | RpcResponse[] | undefined> {
  if (checked.kind === 'answered') return Promise.resolve(checked.response);
  if (checked.batch) return answerBatch(checked.items, execute);
  const v = checked.items[0]!;
  if (!v.ok) return Promise.resolve(v.response);
  const response = execute(v.call);
  return v.call.id === undefined ? response.then(nothing) : response;
}

const nothing = (): undefined => undefined;

async function answerBatch(
  items: readonly ReturnType<typeof validateCall>[],
  execute: (call: RpcCall) => Promise<RpcResponse>,
): Promise<RpcResponse[] | undefined> {
  const responses: RpcResponse[] = [];
  let sliceStart = performance.now();
  for (const v of items) {
    if (!v.ok) responses.push(v.response);
    else {
      const r = await execute(v.call);
      if (v.call.id !== undefined) responses.push(r);
      if (performance.now() - sliceStart > BATCH_SLICE_MS) {
        await turn();
        sliceStart = performance.now();
      }
    }
  }
  return responses.length === 0 ? undefined : responses;
}

/**
 * Answers a parsed JSON-RPC message: an object or a batch. Returns undefined when nothing is to be
 * sent back (a notification, or a batch of notifications only).
 */
export function answer(message: unknown, opts: EnvelopeOptions): Promise<RpcResponse | RpcResponse[] | undefined> {
  return answerChecked(checkMessage(message, opts.maxBatch), opts.execute);
}
