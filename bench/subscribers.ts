/**
 * The subscription figures: N WebSocket subscribers (one connection each, subscribed to `newHeads` and to `logs`
 * of one emitting contract) while blocks are mined, the same on devgate and anvil:
 *   steady: a block every 100 ms (10 per second), each with one transaction emitting one log;
 *   burst:  bursts of 100 blocks (`anvil_mine 100` over 100 pooled transactions, so 100 logs), a pause between.
 * For each: notifications per second (all subscribers), latency p50/p99 from the mine request to the notification
 * received (an upper bound of sealed -> received: it includes building the block; for a burst, every block of it
 * counts from the burst's request), the fan-out spread p50/p99 (a head's arrival at a subscriber after its first
 * arrival at any: the cost of telling N subscribers, without the block's building), RSS before / with subscribers /
 * after they left, and a check that every subscriber got every head and every log once, in chain order.
 *
 *   npx tsx bench/subscribers.ts --subscribers 16 --seconds 2      # devgate (built CLI, sepolia) and anvil, small
 *   npm run bench                                                   # 256 subscribers, on the bench's servers
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import WebSocket from 'ws';
import { DEFAULT_CHAIN_OPTIONS } from './seed.js';
import { anvilBinary, call, ensureBuilt, rpc, startAnvil, startDevgate, type Server } from './servers.js';

export interface SubscriberPhase {
  blocks: number;
  logs: number;
  notifications: number;
  notificationsPerSec: number;
  headP50Ms: number;
  headP99Ms: number;
  logP50Ms: number;
  logP99Ms: number;
  /** A head's arrival at each subscriber after its first arrival at any (ms). */
  spreadP50Ms: number;
  spreadP99Ms: number;
  /** Subscribers that missed, doubled or reordered a head or a log (0 when all is well). */
  wrong: number;
  firstProblem?: string;
}

export interface SubscriberFigures {
  subscribers: number;
  steady?: SubscriberPhase;
  burst?: SubscriberPhase;
  rssBeforeMb?: number;
  rssWithSubscribersMb?: number;
  rssAfterMb?: number;
  error?: string;
}

/** A contract whose every call emits LOG1(topic) with empty data: PUSH32 topic, PUSH1 0, PUSH1 0, LOG1, STOP. */
const EMITTER = '0x00000000000000000000000000000000000e0e0e' as const;
const TOPIC = `0x${'5b'.repeat(32)}` as const;
const EMITTER_CODE = `0x7f${TOPIC.slice(2)}60006000a100` as const;
const FEES = { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
const round = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seen {
  heads: { n: number; t: number }[];
  logs: { block: number; index: number; tx: string; t: number }[];
}

/** One subscriber: a connection with a newHeads and a logs subscription, recording what arrives and when. */
class Subscriber {
  readonly seen: Seen = { heads: [], logs: [] };
  private ids = new Map<string, 'heads' | 'logs'>();
  private constructor(private readonly ws: WebSocket) {}

  static async open(url: string): Promise<Subscriber> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    const s = new Subscriber(ws);
    const answers = new Map<number, (result: string) => void>();
    ws.on('message', (data) => {
      const t = performance.now();
      const m = JSON.parse(data.toString());
      if (m.id !== undefined) return answers.get(m.id)?.(m.result);
      const kind = s.ids.get(m.params?.subscription);
      const r = m.params?.result;
      if (kind === 'heads') s.seen.heads.push({ n: Number(r.number), t });
      else if (kind === 'logs') s.seen.logs.push({ block: Number(r.blockNumber), index: Number(r.logIndex), tx: r.transactionHash, t });
    });
    const subscribe = (id: number, params: unknown[]) =>
      new Promise<string>((resolve) => {
        answers.set(id, resolve);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_subscribe', params }));
      });
    s.ids.set(await subscribe(1, ['newHeads']), 'heads');
    s.ids.set(await subscribe(2, ['logs', { address: EMITTER, topics: [TOPIC] }]), 'logs');
    return s;
  }

  reset(): void {
    this.seen.heads.length = 0;
    this.seen.logs.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** What a phase mined: the blocks, when each was asked for, and the transactions (in order). */
interface Mined {
  from: number;
  to: number;
  requestedAt: Map<number, number>;
  txs: string[];
  startedAt: number;
}

/** Signs `count` calls of the emitter from `key`, nonces from `nonce`. */
async function signCalls(key: Hex, chainId: number, nonce: number, count: number): Promise<Hex[]> {
  const account = privateKeyToAccount(key);
  const raws: Hex[] = [];
  for (let i = 0; i < count; i++) raws.push(await account.signTransaction({ chainId, type: 'eip1559', nonce: nonce + i, to: EMITTER, gas: 30_000n, ...FEES }));
  return raws;
}

async function send(url: string, raw: Hex): Promise<string> {
  const a = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] });
  if (a.error) throw new Error(`eth_sendRawTransaction: ${a.error.message}`);
  return a.result as string;
}

/** A block every 100 ms for `seconds`, each with one emitting transaction. */
async function steady(url: string, raws: Hex[]): Promise<Mined> {
  const from = Number(await call(url, 'eth_blockNumber')) + 1;
  const requestedAt = new Map<number, number>();
  const txs: string[] = [];
  const startedAt = performance.now();
  for (const [i, raw] of raws.entries()) {
    const due = startedAt + i * 100;
    if (performance.now() < due) await sleep(due - performance.now());
    txs.push(await send(url, raw));
    requestedAt.set(from + i, performance.now());
    await call(url, 'evm_mine');
  }
  return { from, to: from + raws.length - 1, requestedAt, txs, startedAt };
}

/** `bursts` bursts of 100 blocks (anvil_mine 100 over 100 pooled transactions), a second apart. */
async function bursts(url: string, raws: Hex[], bursts: number): Promise<Mined> {
  const from = Number(await call(url, 'eth_blockNumber')) + 1;
  const requestedAt = new Map<number, number>();
  const txs: string[] = [];
  const startedAt = performance.now();
  for (let b = 0; b < bursts; b++) {
    for (const raw of raws.slice(b * 100, (b + 1) * 100)) txs.push(await send(url, raw));
    const first = from + b * 100;
    const t = performance.now();
    for (let n = first; n < first + 100; n++) requestedAt.set(n, t);
    await call(url, 'anvil_mine', ['0x64']);
    if (b < bursts - 1) await sleep(1000);
  }
  return { from, to: from + bursts * 100 - 1, requestedAt, txs, startedAt };
}

/** Waits until every subscriber has the last head and every log (or `ms` passed). */
async function settle(subs: Subscriber[], mined: Mined, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  const done = () => subs.every((s) => s.seen.heads.at(-1)?.n === mined.to && s.seen.logs.length >= mined.txs.length);
  while (!done() && Date.now() < end) await sleep(20);
  await sleep(100); // anything late (a duplicate) still counts
}

/** The phase's figures from what the subscribers saw. */
function phaseFigures(subs: Subscriber[], mined: Mined): SubscriberPhase {
  const expectedHeads = Array.from({ length: mined.to - mined.from + 1 }, (_, i) => mined.from + i);
  const headLat: number[] = [];
  const logLat: number[] = [];
  let wrong = 0;
  let firstProblem: string | undefined;
  let last = mined.startedAt;
  let notifications = 0;
  for (const [i, s] of subs.entries()) {
    const heads = s.seen.heads.map((h) => h.n);
    const txs = s.seen.logs.map((l) => l.tx);
    const ordered = s.seen.logs.every((l, j, a) => j === 0 || l.block > a[j - 1]!.block || (l.block === a[j - 1]!.block && l.index > a[j - 1]!.index));
    const problem =
      heads.length !== expectedHeads.length || heads.some((n, j) => n !== expectedHeads[j])
        ? `subscriber ${i}: heads ${heads.length}/${expectedHeads.length}, first ${heads[0]}, last ${heads.at(-1)}`
        : txs.length !== mined.txs.length || new Set(txs).size !== txs.length || !ordered || !mined.txs.every((h) => txs.includes(h))
          ? `subscriber ${i}: logs ${txs.length}/${mined.txs.length}${ordered ? '' : ', out of order'}`
          : undefined;
    if (problem !== undefined) {
      wrong++;
      firstProblem ??= problem;
    }
    for (const h of s.seen.heads) headLat.push(h.t - (mined.requestedAt.get(h.n) ?? h.t));
    for (const l of s.seen.logs) logLat.push(l.t - (mined.requestedAt.get(l.block) ?? l.t));
    for (const x of [...s.seen.heads, ...s.seen.logs]) last = Math.max(last, x.t);
    notifications += s.seen.heads.length + s.seen.logs.length;
  }
  const firstAt = new Map<number, number>();
  for (const s of subs) for (const h of s.seen.heads) firstAt.set(h.n, Math.min(firstAt.get(h.n) ?? h.t, h.t));
  const spread = subs.flatMap((s) => s.seen.heads.map((h) => h.t - firstAt.get(h.n)!)).sort((a, b) => a - b);
  headLat.sort((a, b) => a - b);
  logLat.sort((a, b) => a - b);
  return {
    blocks: expectedHeads.length,
    logs: mined.txs.length,
    notifications,
    notificationsPerSec: Math.round(notifications / ((last - mined.startedAt) / 1000)),
    headP50Ms: round(percentile(headLat, 50)),
    headP99Ms: round(percentile(headLat, 99)),
    logP50Ms: round(percentile(logLat, 50)),
    logP99Ms: round(percentile(logLat, 99)),
    spreadP50Ms: round(percentile(spread, 50)),
    spreadP99Ms: round(percentile(spread, 99)),
    wrong,
    ...(firstProblem ? { firstProblem } : {}),
  };
}

/** Runs both phases against one server (its automine is off meanwhile, and on again after). */
export async function subscriberFigures(
  server: Server,
  opts: { subscribers: number; seconds: number; bursts: number; log: (line: string) => void },
): Promise<SubscriberFigures> {
  const out: SubscriberFigures = { subscribers: opts.subscribers, rssBeforeMb: server.rssMb() };
  const url = server.url;
  const subs: Subscriber[] = [];
  try {
    const chainId = Number(await call(url, 'eth_chainId'));
    const key = generatePrivateKey();
    const sender = privateKeyToAccount(key).address;
    await call(url, 'anvil_setBalance', [sender, '0xd3c21bcecceda1000000']);
    await call(url, 'anvil_setCode', [EMITTER, EMITTER_CODE]);
    await call(url, 'evm_setAutomine', [false]);
    const steadyCount = Math.max(1, Math.round(opts.seconds * 10));
    const raws = await signCalls(key, chainId, 0, steadyCount + opts.bursts * 100);
    for (let i = 0; i < opts.subscribers; i += 32)
      subs.push(...(await Promise.all(Array.from({ length: Math.min(32, opts.subscribers - i) }, () => Subscriber.open(server.wsUrl)))));
    out.rssWithSubscribersMb = server.rssMb();

    const s = await steady(url, raws.slice(0, steadyCount));
    await settle(subs, s);
    out.steady = phaseFigures(subs, s);
    opts.log(`${server.name} subscribers steady: ${JSON.stringify(out.steady)}`);
    for (const sub of subs) sub.reset();
    if (opts.bursts > 0) {
      const b = await bursts(url, raws.slice(steadyCount), opts.bursts);
      await settle(subs, b);
      out.burst = phaseFigures(subs, b);
      opts.log(`${server.name} subscribers burst: ${JSON.stringify(out.burst)}`);
    }
    out.rssWithSubscribersMb = Math.max(out.rssWithSubscribersMb ?? 0, server.rssMb() ?? 0) || undefined;
  } catch (err) {
    out.error = (err as Error).message;
    opts.log(`${server.name} subscribers: ${out.error}`);
  } finally {
    await Promise.all(subs.map((s) => s.close()));
    await call(url, 'evm_setAutomine', [true]).catch(() => {});
  }
  await sleep(1000);
  out.rssAfterMb = server.rssMb();
  return out;
}

/** Standalone: devgate (built CLI, the shipped sepolia chain) and anvil, side by side. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      subscribers: { type: 'string', default: '256' },
      seconds: { type: 'string', default: '10' },
      bursts: { type: 'string', default: '3' },
      'no-anvil': { type: 'boolean', default: false },
    },
  });
  const opts = { subscribers: Number(values.subscribers), seconds: Number(values.seconds), bursts: Number(values.bursts), log: (l: string) => console.log(l) };
  ensureBuilt(opts.log);
  const results: Record<string, SubscriberFigures> = {};
  const devgate = await startDevgate({ chains: ['chains/sepolia.json'], network: 'sepolia' });
  try {
    results.devgate = await subscriberFigures(devgate, opts);
  } finally {
    await devgate.stop();
  }
  const binary = values['no-anvil'] ? undefined : anvilBinary();
  if (binary) {
    const anvil = await startAnvil(binary, DEFAULT_CHAIN_OPTIONS);
    try {
      results.anvil = await subscriberFigures(anvil, opts);
    } finally {
      await anvil.stop();
    }
  }
  console.log(JSON.stringify(results, null, 2));
  console.log(`\n${subscribersMarkdown(results)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/** The figures of both servers as a Markdown table, for docs/bench-analysis.md. */
export function subscribersMarkdown(results: Record<string, SubscriberFigures>): string {
  const head =
    '| subscribers | server | phase | blocks / logs | notifications/s | head p50 / p99 ms | log p50 / p99 ms | fan-out spread p50 / p99 ms | all in order | RSS before / with / after MB |';
  const rows: string[] = [head, '| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |'];
  for (const [name, r] of Object.entries(results)) {
    if (r.error !== undefined) rows.push(`| ${r.subscribers} | ${name} | failed: ${r.error.slice(0, 80)} | | | | | | | |`);
    for (const phase of ['steady', 'burst'] as const) {
      const p = r[phase];
      if (p === undefined) continue;
      const what = phase === 'steady' ? '10 blocks/s' : 'bursts of 100';
      rows.push(
        `| ${r.subscribers} | ${name} | ${what} | ${p.blocks} / ${p.logs} | ${p.notificationsPerSec} | ${p.headP50Ms} / ${p.headP99Ms} | ${p.logP50Ms} / ${p.logP99Ms} | ${p.spreadP50Ms} / ${p.spreadP99Ms} | ${p.wrong === 0 ? 'yes' : `no: ${p.wrong} (${p.firstProblem})`} | ${r.rssBeforeMb ?? '?'} / ${r.rssWithSubscribersMb ?? '?'} / ${r.rssAfterMb ?? '?'} |`,
      );
    }
  }
  return [
    'Latency: from the mine request to the notification received (it includes building the block; a burst counts every block from its request). ' +
      'Fan-out spread: when a head reached a subscriber after it first reached any (the cost of telling every subscriber).',
    '',
    ...rows,
  ].join('\n');
}
