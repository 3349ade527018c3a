/**
 * Load and correctness checks: a sample of each figure's requests is checked on each server before
 * timing (an erroring server must not look fast), then HTTP load runs with autocannon and WebSocket
 * load with a loop of request/response round trips on `connections` sockets.
 */
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { requestText, type Figure } from './figures.js';
import { prng, type BenchMeta } from './seed.js';
import { rpc } from './servers.js';

export interface Measure {
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  /** Connection errors, timeouts, non-2xx answers and answers with an `"error"` or a null result. */
  failures: number;
  /** The failures by kind, where any. */
  failureKinds?: Record<string, number>;
  /** The start of the first answer with an error or a null result. */
  firstFailure?: string;
}

/** Why a figure could not be timed on a server, as `n/a (<reason>)`; undefined when the sample is sound. */
export type CheckOutcome = { ok: true; digests: unknown[] } | { ok: false; reason: string };

const SAMPLE = 20;

/** Sends SAMPLE requests of the figure (the same ones to each server) and checks every answer. */
export async function checkFigure(figure: Figure, url: string, meta: BenchMeta, seed: number): Promise<CheckOutcome> {
  const rand = prng(seed);
  const digests: unknown[] = [];
  for (let i = 0; i < SAMPLE; i++) {
    const req = figure.make(rand, meta);
    const body = JSON.parse(requestText(req, i + 1)) as { id: number; method: string }[] | { id: number; method: string };
    let answer: any;
    try {
      answer = await rpc(url, body);
    } catch (err) {
      return { ok: false, reason: `request failed: ${(err as Error).message.slice(0, 120)}` };
    }
    const sent = Array.isArray(body) ? body : [body];
    const answers: any[] = Array.isArray(answer) ? answer : [answer];
    if (answers.length !== sent.length) return { ok: false, reason: `${sent.length} requests got ${answers.length} answers` };
    const methodOf = (a: any) => sent.find((s) => s.id === a?.id)?.method ?? `id ${String(a?.id)}`;
    const missing = answers.filter((a) => a?.error?.code === -32601).map(methodOf);
    if (missing.length > 0) return { ok: false, reason: `method missing: ${[...new Set(missing)].join(', ')}` };
    const failed = answers.find((a) => a?.error || a?.result === undefined);
    if (failed) return { ok: false, reason: `error ${failed.error?.code ?? ''} ${String(failed.error?.message ?? 'no result').slice(0, 100)}` };
    const nulls = answers.filter((a) => a.result === null);
    if (nulls.length > 0) return { ok: false, reason: `null result for ${requestText(req, 0).slice(0, 160)}` };
    if (figure.digest && !Array.isArray(answer)) digests.push(figure.digest(answer.result));
  }
  return { ok: true, digests };
}

/** Seconds of load before the timed run, so JIT warm-up and first-touch caches are not in the figure. */
const WARMUP_S = 1;

/** Runs HTTP load with autocannon for `duration` seconds (after a short warm-up). */
export async function httpLoad(figure: Figure, url: string, meta: BenchMeta, opts: { connections: number; duration: number; seed: number }): Promise<Measure> {
  const rand = prng(opts.seed);
  let id = 1;
  let firstFailure: string | undefined;
  const sound = (body: string) => {
    const ok = !body.includes('"error"') && !body.includes('"result":null');
    if (!ok) firstFailure ??= body.slice(0, 300);
    return ok;
  };
  const run = (duration: number) =>
    autocannon({
      url,
      connections: opts.connections,
      duration,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      timeout: 30,
      requests: [{ setupRequest: (req) => ({ ...req, body: requestText(figure.make(rand, meta), id++) }) }],
      // Cheap, on every answer: an error object or a null result counts as a failure.
      verifyBody: sound,
    });
  await run(WARMUP_S);
  const r = await run(opts.duration);
  return {
    reqPerSec: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    failures: r.errors + r.non2xx + r.mismatches,
    ...(r.errors + r.non2xx + r.mismatches > 0
      ? { failureKinds: { connectionErrors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, errorOrNullAnswers: r.mismatches } }
      : {}),
    ...(firstFailure ? { firstFailure } : {}),
  };
}

/** `connections` WebSockets, each sending its next request when the last answer arrives, for `duration` seconds. */
export async function wsLoad(figure: Figure, url: string, meta: BenchMeta, opts: { connections: number; duration: number; seed: number }): Promise<Measure> {
  await wsRun(figure, url, meta, { ...opts, duration: WARMUP_S });
  return wsRun(figure, url, meta, opts);
}

async function wsRun(figure: Figure, url: string, meta: BenchMeta, opts: { connections: number; duration: number; seed: number }): Promise<Measure> {
  const rand = prng(opts.seed);
  const sockets = await Promise.all(
    Array.from(
      { length: opts.connections },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url);
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
    ),
  );
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let id = 1;
  let running = true;
  const started = performance.now();
  const loops = sockets.map(
    (ws) =>
      new Promise<void>((resolve) => {
        let sentAt = 0;
        const send = () => {
          if (!running) return resolve();
          sentAt = performance.now();
          ws.send(requestText(figure.make(rand, meta), id++));
        };
        ws.on('message', (data) => {
          latencies.push(performance.now() - sentAt);
          const text = data.toString();
          if (text.includes('"error"') || text.includes('"result":null')) failures++, (firstFailure ??= text.slice(0, 300));
          send();
        });
        ws.on('close', () => ((running = false), resolve()));
        ws.on('error', () => void failures++);
        send();
      }),
  );
  const timer = setTimeout(() => (running = false), opts.duration * 1000);
  await Promise.all(loops);
  clearTimeout(timer);
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(sockets.map((ws) => new Promise<void>((r) => (ws.readyState === WebSocket.CLOSED ? r() : (ws.once('close', () => r()), ws.close())))));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return {
    reqPerSec: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    requests: latencies.length,
    failures,
    ...(firstFailure ? { firstFailure } : {}),
  };
}
