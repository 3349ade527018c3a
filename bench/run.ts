/**
 * `npm run bench`: devgate side by side with anvil on the same 1,000-block chain.
 *
 *   npm run bench                          # everything; writes bench/results/latest.{json,md}
 *   npm run bench -- --only proof,receipt  # some figures (results go to .devgate-cache/bench/)
 *   npm run bench -- --duration 3 --skip-startup --no-anvil
 *   npm run bench -- --profile --only blockFull,proof   # devgate under node --cpu-prof; prints hotspots
 *   npm run bench -- --devgate-url http://127.0.0.1:8545/bench/v3/k   # a devgate already serving the seed
 *   npm run bench -- --only none --writes-count 200 --writes-seconds 3   # only the write figures, short
 * After the read figures, the write figures (bench/writes.ts) run on both servers (--no-writes skips them), then the
 * subscription figures (bench/subscribers.ts: --subscribers 256, --subscribers-seconds 10, --subscribers-bursts 3;
 * --no-subscribers skips them), then the hostile table (bench/hostile.ts: issue 25's attacks against fresh servers;
 * --no-hostile skips it, --hostile-attacks mine,sled picks some, --hostile-scale 0.2 shrinks them).
 *   npm run bench -- --only hostile        # the hostile table alone; writes bench/results/hostile.{json,md}
 * Then the test-suite bench (bench/suiteBench.ts: a viem suite against anvil, devgate's CLI and devgate in-process;
 * --suite-rounds 5, --suite-tests 150, --suite-profile runs the CLI once more under --cpu-prof; --no-suite skips it) and
 * the per-kind latency table (bench/kinds.ts: one request in flight against anvil; --kinds-scale 0.2 takes fewer
 * samples; --no-kinds skips it). Docs: docs/bench.md.
 *   npm run bench -- --only suite          # the suite bench alone; writes bench/results/suite.{json,md}
 *   npm run bench -- --only kinds          # the per-kind table alone; writes bench/results/kinds.{json,md}
 *   npm run bench -- --only fork           # the fork figures alone (vs anvil --fork-url); writes bench/results/fork.{json,md}
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FIGURES as READ_FIGURES, type Figure } from './figures.js';
import { STEPS_TRACING_FIGURES, TRACE_FIGURES } from './traceFigures.js';
import { checkFigure, httpLoad, wsLoad, type Measure } from './load.js';
import { monotonicUs, summarizeProfile, type ProfileSummary } from './profile.js';
import { machine, markdown, terminalTable, type BenchResults, type FigureResult, type ServerFigure, type StartupResult } from './report.js';
import { benchChain, CACHE_DIR, DEFAULT_CHAIN_OPTIONS, REPO_ROOT, type BenchChain } from './seed.js';
import { writeFigures, type WriteFigures } from './writes.js';
import { subscriberFigures, subscribersMarkdown, type SubscriberFigures } from './subscribers.js';
import { HOSTILE_DEFAULTS, hostileTable } from './hostile.js';
import { suiteBench, suiteMarkdown } from './suiteBench.js';
import { kindsMarkdown, kindsTable } from './kinds.js';
import { forkBench } from './fork.js';
import {
  anvilBinary,
  anvilVersion,
  call,
  devgateHasCache,
  ensureBuilt,
  replayOnAnvil,
  startAnvil,
  startDevgate,
  type DevgateOptions,
  type Server,
} from './servers.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '6' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
    'no-anvil': { type: 'boolean', default: false },
    'skip-startup': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    /** Use a devgate already serving the bench seed (its HTTP address); no startup figures. */
    'devgate-url': { type: 'string' },
    'no-writes': { type: 'boolean', default: false },
    'writes-count': { type: 'string', default: '1000' },
    'writes-senders': { type: 'string', default: '32' },
    'writes-seconds': { type: 'string', default: '10' },
    'no-subscribers': { type: 'boolean', default: false },
    subscribers: { type: 'string', default: '256' },
    'subscribers-seconds': { type: 'string', default: '10' },
    'subscribers-bursts': { type: 'string', default: '3' },
    'no-hostile': { type: 'boolean', default: false },
    'hostile-attacks': { type: 'string' },
    'hostile-scale': { type: 'string', default: String(HOSTILE_DEFAULTS.scale) },
    'no-suite': { type: 'boolean', default: false },
    'suite-rounds': { type: 'string', default: '5' },
    'suite-tests': { type: 'string', default: '150' },
    'suite-profile': { type: 'boolean', default: false },
    'no-kinds': { type: 'boolean', default: false },
    'kinds-scale': { type: 'string', default: '1' },
    'no-fork': { type: 'boolean', default: false },
  },
});
/** Every figure: the reads, then tracing (bench/traceFigures.ts). */
const FIGURES: readonly Figure[] = [...READ_FIGURES, ...TRACE_FIGURES];
const duration = Number(args.duration);
const connections = Number(args.connections);
const only = args.only
  ?.split(',')
  .map((s) => s.trim())
  .filter((s) => s !== 'none');
/** The parts that run on their own servers and write their own results: `--only` picks them like figures. */
const SEPARATE = ['hostile', 'suite', 'kinds', 'fork'];
const unknown = only?.filter((id) => !SEPARATE.includes(id) && !FIGURES.some((f) => f.id === id));
if (unknown?.length) {
  console.error(`unknown figure(s) ${unknown.join(', ')}; figures: ${FIGURES.map((f) => f.id).join(', ')}, ${SEPARATE.join(', ')}`);
  process.exit(2);
}
const figures = FIGURES.filter((f) => !only || only.includes(f.id));
/** `--only hostile` runs the hostile table alone; a full run ends with it unless --no-hostile. */
const runHostile = only ? only.includes('hostile') : !args['no-hostile'];
const runSuite = only ? only.includes('suite') : !args['no-suite'];
const runKinds = only ? only.includes('kinds') : !args['no-kinds'];
const runFork = only ? only.includes('fork') : !args['no-fork'];
/** Only separate parts asked for: no read figures. */
const separateOnly = only !== undefined && only.length > 0 && only.every((id) => SEPARATE.includes(id));
const fullRun = !only && !args.profile && !args['skip-startup'] && !args['no-anvil'] && !args['devgate-url'];
const log = (line: string) => console.log(line);
const running: Server[] = [];
/** Run at the end (temporary folders). */
const cleanups: (() => void)[] = [];

async function main(): Promise<void> {
  if (!separateOnly) await figuresAndWrites();
  if (runSuite) await suiteAndKinds('suite');
  if (runKinds) await suiteAndKinds('kinds');
  if (runFork) {
    // Fork figures (bench/fork.ts): devgate --fork-url against anvil --fork-url on one upstream; bench/results/fork.{json,md}.
    const { json, md } = await forkBench(log);
    writeFileSync(join(REPO_ROOT, 'bench', 'results', 'fork.json'), `${JSON.stringify(json, null, 2)}\n`);
    writeFileSync(join(REPO_ROOT, 'bench', 'results', 'fork.md'), md);
    log(md);
  }
  if (runHostile)
    await hostileTable({
      ...HOSTILE_DEFAULTS,
      attacks: args['hostile-attacks']?.split(',').map((s) => s.trim()),
      anvil: !args['no-anvil'],
      scale: Number(args['hostile-scale']),
      log,
    });
}

async function figuresAndWrites(): Promise<void> {
  const loadAtStart = loadavg();
  if (loadAtStart[0]! > 0.5 * cpus().length)
    log(`warning: the machine is busy (load average ${loadAtStart[0]!.toFixed(1)} on ${cpus().length} cores); the figures will be low`);
  const chain = await benchChain(DEFAULT_CHAIN_OPTIONS, log);
  const profileDir = args.profile ? join(CACHE_DIR, 'profiles', new Date().toISOString().replace(/[:.]/g, '-')) : undefined;
  const startup: StartupResult[] = [];
  const memory: BenchResults['memory'] = {};

  const devgate = args['devgate-url'] ? runningDevgate(args['devgate-url']) : await devgateUnderTest(chain, startup, profileDir);
  if (devgate) {
    memory.devgateAfterLoadMb = devgate.rssMb();
    const head = Number(await call(devgate.url, 'eth_blockNumber'));
    if (head !== chain.meta.head)
      log(`warning: devgate is at block ${head}, the seed has ${chain.meta.head} blocks (the figures that need them will fail their checks)`);
  }

  const binary = args['no-anvil'] ? undefined : anvilBinary();
  let anvil: Server | undefined;
  let anvilReplayMs: number | undefined;
  let anvilStatus = args['no-anvil'] ? 'skipped (--no-anvil)' : 'skipped (anvil missing: the @foundry-rs/anvil dev dependency is not installed)';
  const anvilRelease = binary ? await anvilVersion(binary) : undefined;
  if (binary) {
    // Every historical state in memory: anvil's default keeps ~500 and reads older ones from disk,
    // which made its eth_call at random blocks ~14x slower here. The bench compares with anvil at its best.
    anvil = await startAnvil(binary, DEFAULT_CHAIN_OPTIONS, ['--prune-history', String(chain.meta.head + 100)]);
    running.push(anvil);
    startup.push({ what: `anvil ${anvilRelease}, empty chain`, firstMs: anvil.startupMs, status: 'ok' });
    const t0 = performance.now();
    await replayOnAnvil(anvil, chain);
    anvilReplayMs = performance.now() - t0;
    memory.anvilAfterReplayMb = anvil.rssMb();
    log(`anvil: started in ${anvil.startupMs.toFixed(0)} ms, replayed ${chain.meta.txHashes.length} transactions in ${(anvilReplayMs / 1000).toFixed(1)} s`);
  } else log(`anvil: ${anvilStatus}`);
  if (anvil) anvilStatus = 'ok';
  // The struct logger's figure runs against a second anvil that records steps (--steps-tracing; without it anvil
  // answers `structLogs: []`), on the same replayed chain; the other figures keep the plain one.
  let anvilSteps: Server | undefined;
  if (binary && figures.some((f) => STEPS_TRACING_FIGURES.has(f.id))) {
    anvilSteps = await startAnvil(binary, DEFAULT_CHAIN_OPTIONS, ['--prune-history', String(chain.meta.head + 100), '--steps-tracing']);
    running.push(anvilSteps);
    const t0 = performance.now();
    await replayOnAnvil(anvilSteps, chain);
    log(`anvil --steps-tracing (struct logger figures): replayed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  const results: FigureResult[] = [];
  /** When devgate was under each figure's load (for the CPU profile). */
  const loadWindows: { id: string; fromUs: number; toUs: number }[] = [];
  for (const [n, figure] of figures.entries()) {
    const seed = 1000 + n;
    const result: FigureResult = {
      id: figure.id,
      label: figure.label,
      target: figure.target,
      devgate: { status: 'skipped (devgate did not start)' },
      anvil: { status: anvilStatus },
    };
    const dv = devgate ? await checkFigure(figure, devgate.url, chain.meta, seed) : undefined;
    const anvilOf = STEPS_TRACING_FIGURES.has(figure.id) ? anvilSteps : anvil;
    const av = anvilOf ? await checkFigure(figure, anvilOf.url, chain.meta, seed) : undefined;
    if (dv && av?.ok && dv.ok) result.note = compareDigests(dv.digests, av.digests);
    const fromUs = monotonicUs();
    if (devgate && dv) result.devgate = dv.ok ? await measure(figure, devgate, chain, seed) : { status: `n/a (${dv.reason})` };
    if (result.devgate.status === 'ok') loadWindows.push({ id: figure.id, fromUs, toUs: monotonicUs() });
    if (anvilOf && av) result.anvil = av.ok ? await measure(figure, anvilOf, chain, seed) : { status: `n/a (${av.reason})` };
    if (result.devgate.reqPerSec && result.anvil.reqPerSec) result.ratio = result.devgate.reqPerSec / result.anvil.reqPerSec;
    log(progressLine(result));
    results.push(result);
  }

  if (devgate) memory.devgateAfterRunMb = devgate.rssMb();
  if (anvil) memory.anvilAfterRunMb = anvil.rssMb();
  const writes: Record<string, WriteFigures> = {};
  if (!args['no-writes']) {
    const wopts = { count: Number(args['writes-count']), senders: Number(args['writes-senders']), seconds: Number(args['writes-seconds']), log };
    if (devgate) writes.devgate = await writeFigures(devgate, chain.meta, wopts);
    if (anvil) writes.anvil = await writeFigures(anvil, chain.meta, wopts);
    for (const k of ['sendWait', 'sendParallel'] as const) {
      const d = writes.devgate?.[k]?.txPerSec;
      const a = writes.anvil?.[k]?.txPerSec;
      if (d && a) log(`writes ${k}: devgate/anvil ${(d / a).toFixed(2)}x (target ${k === 'sendWait' ? '1.0' : '0.5'}x)`);
    }
  }
  const subscribers: Record<string, SubscriberFigures> = {};
  if (!args['no-subscribers']) {
    const sopts = { subscribers: Number(args.subscribers), seconds: Number(args['subscribers-seconds']), bursts: Number(args['subscribers-bursts']), log };
    if (devgate) subscribers.devgate = await subscriberFigures(devgate, sopts);
    if (anvil) subscribers.anvil = await subscriberFigures(anvil, sopts);
  }
  await stopAll();

  const out: BenchResults & { profile?: Record<string, ProfileSummary>; subscribers?: Record<string, SubscriberFigures> } = {
    date: new Date().toISOString(),
    machine: machine(loadAtStart, anvilRelease),
    settings: { connections, durationSeconds: duration, warmupSeconds: 1 },
    chain: { blocks: chain.meta.head, transactions: chain.meta.txHashes.length, holders: chain.meta.holders.length, seedKey: chain.meta.key },
    startup,
    memory,
    ...(anvilReplayMs !== undefined ? { anvilReplayMs: Math.round(anvilReplayMs) } : {}),
    figures: results,
    ...(Object.keys(writes).length > 0 ? { writes } : {}),
    ...(Object.keys(subscribers).length > 0 ? { subscribers } : {}),
  };
  if (profileDir && devgate) out.profile = printProfile(profileDir, devgate.pid, loadWindows);
  console.log(`\n${terminalTable(out)}\n`);
  for (const s of startup)
    console.log(
      `startup ${s.what}: ${s.status === 'ok' ? `${s.firstMs?.toFixed(0)} ms${s.secondMs === undefined ? '' : `, second start ${s.secondMs.toFixed(0)} ms`}` : s.status}`,
    );
  console.log(`memory (RSS MB): ${JSON.stringify(memory)}`);
  for (const f of results) {
    for (const [name, side] of [
      ['devgate', f.devgate],
      ['anvil', f.anvil],
    ] as const) {
      if (side.status !== 'ok' && !side.status.startsWith('skipped')) console.log(`${f.id} on ${name}: ${side.status}`);
      if (side.failures)
        console.log(`${f.id} on ${name}: ${side.failures} failures ${JSON.stringify(side.failureKinds ?? {})}, first: ${side.firstFailure ?? '?'}`);
    }
    if (f.note) console.log(`note ${f.id}: ${f.note}`);
  }
  const dir = fullRun ? join(REPO_ROOT, 'bench', 'results') : CACHE_DIR;
  mkdirSync(dir, { recursive: true });
  const name = fullRun ? 'latest' : 'partial';
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(out, null, 2)}\n`);
  writeFileSync(join(dir, `${name}.md`), `${markdown(out)}${Object.keys(subscribers).length > 0 ? `\n\n${subscribersMarkdown(subscribers)}` : ''}\n`);
  console.log(`results: ${join(dir, `${name}.json`)}`);
}

/** The suite bench or the per-kind table; results in bench/results/ (a full run or `--only`), else .devgate-cache/bench/. */
async function suiteAndKinds(part: 'suite' | 'kinds'): Promise<void> {
  const full = fullRun || only?.includes(part);
  const dir = full ? join(REPO_ROOT, 'bench', 'results') : CACHE_DIR;
  mkdirSync(dir, { recursive: true });
  let json: unknown;
  let md: string;
  if (part === 'suite') {
    const profileDir = args['suite-profile'] ? join(CACHE_DIR, 'profiles', `suite-${new Date().toISOString().replace(/[:.]/g, '-')}`) : undefined;
    const r = await suiteBench({ rounds: Number(args['suite-rounds']), tests: Number(args['suite-tests']), profileDir, log });
    if (r.profile) {
      const { suiteProfileMarkdown } = await import('./suiteProfile.js');
      const out = join(dir, 'suite-profile.md');
      writeFileSync(out, `${suiteProfileMarkdown(r.profile.dir, r.profile.window, out)}\n`);
      log(`suite profile: ${join(dir, 'suite-profile.md')}`);
    }
    [json, md] = [r, suiteMarkdown(r)];
  } else {
    const r = await kindsTable({ scale: Number(args['kinds-scale']), log });
    [json, md] = [r, kindsMarkdown(r)];
  }
  writeFileSync(join(dir, `${part}.json`), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(join(dir, `${part}.md`), `${md}\n`);
  console.log(`\n${md}\n\nresults: ${join(dir, `${part}.json`)}`);
}

/**
 * Measures startup: the shipped chains twice, the bench seed twice. The second start of the bench
 * seed (under --cpu-prof with --profile) stays up as the devgate the load runs against.
 */
async function devgateUnderTest(chain: BenchChain, startup: StartupResult[], profileDir?: string): Promise<Server | undefined> {
  ensureBuilt(log);
  // A fresh cache of built chains: the first start builds (cold), the second may restore.
  const cacheDir = (await devgateHasCache()) ? mkdtempSync(join(tmpdir(), 'devgate-bench-cache-')) : undefined;
  if (cacheDir) cleanups.push(() => rmSync(cacheDir, { recursive: true, force: true }));
  else log('devgate has no cache of built chains (--cache-dir): both starts build');
  const bench = { chains: [chain.seedPath], network: 'bench', cacheDir };
  const what = `devgate, ${chain.meta.head}-block seed`;
  if (!args['skip-startup']) {
    const shipped = await startTimes('devgate, shipped chains', { network: 'mainnet', cacheDir }, false);
    startup.push(shipped.result);
  }
  const seeded = await startTimes(what, { ...bench, cpuProfDir: profileDir }, true);
  startup.push(seeded.result);
  return seeded.server;
}

function runningDevgate(url: string): Server {
  const u = new URL(url);
  const ws = `ws://${u.host}${u.pathname.replace(/\/v3\//, '/ws/v3/')}`;
  return { name: 'devgate', pid: 0, url, wsUrl: ws, startupMs: 0, rssMb: () => undefined, stop: async () => {} };
}

/** Starts devgate (twice unless --skip-startup) and records the times to the first answer; keeps the last one running if `keep`. */
async function startTimes(what: string, opts: DevgateOptions, keep: boolean): Promise<{ result: StartupResult; server?: Server }> {
  const times: number[] = [];
  const starts = args['skip-startup'] ? 1 : 2;
  let server: Server | undefined;
  for (let i = 0; i < starts; i++) {
    const last = i === starts - 1;
    try {
      server = await startDevgate(last ? opts : { ...opts, cpuProfDir: undefined });
    } catch (err) {
      log(`startup ${what}: failed: ${(err as Error).message}`);
      return { result: { what, status: `failed (${(err as Error).message.split('\n')[0]!.slice(0, 120)})` } };
    }
    running.push(server);
    times.push(server.startupMs);
    if (keep) log(`${what}: started in ${server.startupMs.toFixed(0)} ms, RSS ${server.rssMb()} MB`);
    if (!(keep && last)) await server.stop();
  }
  if (!keep) log(`startup ${what}: ${times.map((t) => `${t.toFixed(0)} ms`).join(', then ')}`);
  return { result: { what, firstMs: times[0], secondMs: times[1], status: 'ok' }, server: keep ? server : undefined };
}

async function measure(figure: Figure, server: Server, chain: BenchChain, seed: number): Promise<ServerFigure> {
  try {
    const opts = { connections, duration, seed };
    const m: Measure = figure.transport === 'ws' ? await wsLoad(figure, server.wsUrl, chain.meta, opts) : await httpLoad(figure, server.url, chain.meta, opts);
    return { status: 'ok', ...m };
  } catch (err) {
    return { status: `failed (${(err as Error).message.slice(0, 100)})` };
  }
}

function compareDigests(devgate: unknown[], anvil: unknown[]): string | undefined {
  for (let i = 0; i < Math.min(devgate.length, anvil.length); i++) {
    const diff = firstDifference(devgate[i], anvil[i], '');
    if (diff) return `answers differ from anvil's (sample ${i + 1}) at ${diff}`;
  }
  return undefined;
}

/** The path of the first differing leaf and the two values there. */
function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`);
      if (d) return d;
    }
    return undefined;
  }
  const [x, y] = [JSON.stringify(a) ?? 'undefined', JSON.stringify(b) ?? 'undefined'];
  return x === y ? undefined : `${path || '(result)'}: devgate ${x.slice(0, 140)}, anvil ${y.slice(0, 140)}`;
}

function progressLine(r: FigureResult): string {
  const side = (name: string, s: ServerFigure) =>
    s.status === 'ok'
      ? `${name} ${s.reqPerSec!.toFixed(0)} req/s p50 ${s.p50!.toFixed(2)} ms p99 ${s.p99!.toFixed(2)} ms${s.failures ? ` (${s.failures} failed)` : ''}`
      : `${name} ${s.status}`;
  return `${r.label}: ${side('devgate', r.devgate)}; ${side('anvil', r.anvil)}${r.ratio ? `; ratio ${r.ratio.toFixed(2)}` : ''}`;
}

/** Hotspots of devgate's main thread during each figure's load (the tsx loader thread is left out). */
function printProfile(dir: string, pid: number, windows: { id: string; fromUs: number; toUs: number }[]): Record<string, ProfileSummary> | undefined {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${pid}.0.`));
  if (!file) return void log(`no CPU profile of devgate's main thread was written to ${dir}`);
  const out: Record<string, ProfileSummary> = {};
  for (const w of windows) {
    const summary = (out[w.id] = summarizeProfile(join(dir, file), 15, w));
    const busyShare = (summary.busySamples / ((w.toUs - w.fromUs) / 1000)) * 100;
    console.log(`\nCPU profile of devgate under ${w.id} (${join(dir, file)}; ~${busyShare.toFixed(0)}% of one core busy); self time:`);
    for (const f of summary.functions) console.log(`  ${f.selfPercent.toFixed(1).padStart(5)}%  ${f.name}`);
    console.log('  by file or package:');
    for (const f of summary.files.slice(0, 10)) console.log(`  ${f.selfPercent.toFixed(1).padStart(5)}%  ${f.name}`);
  }
  return out;
}

async function stopAll(): Promise<void> {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  for (const clean of cleanups.splice(0)) clean();
}

process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
main().catch(async (err: unknown) => {
  console.error(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await stopAll();
  process.exit(1);
});
