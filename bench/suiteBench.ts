/**
 * The test-suite bench (issue 26): bench/suite.ts's viem suite, one request in flight, against anvil, devgate's CLI
 * (`node bin/devgate.js`, its bare address) and devgate's in-process provider (`start()` and `custom(gw.provider('dev'))`
 * in the suite's process), interleaved over `rounds` rounds. Every run gets a fresh server and a fresh suite process
 * (bench/suiteChild.ts). Reports each run's wall time, the median per server and its ratio to anvil's (above 1.0x:
 * faster than anvil), and the server's CPU time during the suite (from /proc/<pid>/stat; in-process, the suite's
 * process, suite and server together). A wrong answer fails the run, and a failed run has no time.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { monotonicUs } from './profile.js';
import { CACHE_DIR, REPO_ROOT } from './seed.js';
import { anvilBinary, cpuMsOf, ensureBuilt, startAnvilDev, startDevgate, type Server } from './servers.js';
import type { SuiteChildAnswer } from './suiteChild.js';

export type SuiteServer = 'anvil' | 'devgate CLI' | 'devgate in-process';
export const SUITE_SERVERS: readonly SuiteServer[] = ['anvil', 'devgate CLI', 'devgate in-process'];

export interface SuiteRun {
  server: SuiteServer;
  round: number;
  ms?: number;
  /** The server process's CPU time during the suite (ms); in-process: the suite's process, suite and server. */
  serverCpuMs?: number;
  /** The suite process's own CPU time (ms): the client's work (in-process, the server's too). */
  suiteCpuMs?: number;
  error?: string;
  /** When the suite ran (monotonic µs, the clock of a CPU profile's samples). */
  window?: { fromUs: number; toUs: number };
}

export interface SuiteSummary {
  server: SuiteServer;
  runs: number;
  failures: number;
  medianMs?: number;
  /** anvil's median time over this server's (above 1: faster than anvil). */
  ratio?: number;
  medianServerCpuMs?: number;
  medianSuiteCpuMs?: number;
}

export interface SuiteResults {
  date: string;
  loadAverage: { start: number[]; end: number[] };
  rounds: number;
  tests: number;
  runs: SuiteRun[];
  summary: SuiteSummary[];
  /** The CPU profile of devgate's CLI during one more run (`profile` option). */
  profile?: { dir: string; window?: { fromUs: number; toUs: number }; ms?: number; error?: string };
}

export interface SuiteBenchOptions {
  rounds: number;
  tests: number;
  /** Servers to run (all three by default; anvil is skipped when its binary is missing). */
  servers?: readonly SuiteServer[];
  /** Also run devgate's CLI once under `node --cpu-prof`, its profile written into this folder. */
  profileDir?: string;
  log: (line: string) => void;
}

/** devgate's cache of built chains for the bench's starts (the first start builds, the next ones restore). */
export const SUITE_CACHE = join(CACHE_DIR, 'suite-chain-cache');
const CHILD = join(REPO_ROOT, 'bench', 'suiteChild.ts');

export const median = (xs: number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** A suite run that takes longer fails (a server that stopped answering must not hang the bench). */
const RUN_TIMEOUT_MS = 20 * 60_000;

/** Runs the suite once in a fresh process (bench/suiteChild.ts) and parses its answer. */
function runChild(args: string[]): Promise<SuiteChildAnswer> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => void (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => void (err += c.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') return resolve({ ms: 0, cpuMs: 0, error: `the suite took longer than ${RUN_TIMEOUT_MS / 60_000} minutes` });
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as SuiteChildAnswer);
      } catch {
        resolve({ ms: 0, cpuMs: 0, error: `the suite process exited (code ${code}): ${(err || out).trim().slice(-300)}` });
      }
    });
  });
}

async function oneRun(server: SuiteServer, round: number, tests: number, anvil: string | undefined, cpuProfDir?: string): Promise<SuiteRun> {
  const testsArg = ['--tests', String(tests)];
  if (server === 'devgate in-process') {
    const answer = await runChild(['--in-process', '--cache-dir', SUITE_CACHE, ...testsArg]);
    return answer.error ? { server, round, error: answer.error } : { server, round, ms: answer.ms, serverCpuMs: answer.cpuMs, suiteCpuMs: answer.cpuMs };
  }
  const running: Server =
    server === 'anvil' ? await startAnvilDev(anvil!) : await startDevgate({ network: 'dev', bare: true, cacheDir: SUITE_CACHE, cpuProfDir });
  try {
    const cpu0 = cpuMsOf(running.pid);
    const fromUs = monotonicUs();
    const answer = await runChild(['--url', running.url, '--ws', running.wsUrl, ...testsArg]);
    const window = { fromUs, toUs: monotonicUs() };
    const cpu1 = cpuMsOf(running.pid);
    if (answer.error) return { server, round, error: answer.error };
    return {
      server,
      round,
      window,
      ms: answer.ms,
      ...(cpu0 !== undefined && cpu1 !== undefined ? { serverCpuMs: cpu1 - cpu0 } : {}),
      suiteCpuMs: answer.cpuMs,
    };
  } finally {
    await running.stop();
  }
}

export function summarize(runs: readonly SuiteRun[], servers: readonly SuiteServer[]): SuiteSummary[] {
  const of = (s: SuiteServer) => runs.filter((r) => r.server === s);
  const anvilMs = median(of('anvil').flatMap((r) => (r.ms === undefined ? [] : [r.ms])));
  return servers.map((server) => {
    const ok = of(server).filter((r) => r.ms !== undefined);
    const medianMs = median(ok.map((r) => r.ms!));
    return {
      server,
      runs: of(server).length,
      failures: of(server).length - ok.length,
      ...(medianMs === undefined ? {} : { medianMs }),
      ...(medianMs !== undefined && anvilMs !== undefined ? { ratio: anvilMs / medianMs } : {}),
      ...(ok.some((r) => r.serverCpuMs !== undefined)
        ? { medianServerCpuMs: median(ok.flatMap((r) => (r.serverCpuMs === undefined ? [] : [r.serverCpuMs]))) }
        : {}),
      ...(ok.length ? { medianSuiteCpuMs: median(ok.map((r) => r.suiteCpuMs ?? 0)) } : {}),
    };
  });
}

/** The bench: `rounds` rounds, each running every server once (the order rotates by round), then the optional profile run. */
export async function suiteBench(opts: SuiteBenchOptions): Promise<SuiteResults> {
  ensureBuilt(opts.log);
  mkdirSync(SUITE_CACHE, { recursive: true });
  const anvil = anvilBinary();
  const servers = (opts.servers ?? SUITE_SERVERS).filter((s) => s !== 'anvil' || anvil);
  if (!anvil) opts.log('suite: anvil is missing (the @foundry-rs/anvil dev dependency): devgate only, no ratios');
  const loadStart = loadavg();
  const runs: SuiteRun[] = [];
  // A warm-up start of each devgate (it builds the shipped chains into the cache once; not measured).
  if (servers.some((s) => s !== 'anvil')) await (await startDevgate({ network: 'dev', bare: true, cacheDir: SUITE_CACHE })).stop();
  for (let round = 1; round <= opts.rounds; round++) {
    const order = servers.map((_, i) => servers[(i + round - 1) % servers.length]!);
    for (const server of order) {
      const run = await oneRun(server, round, opts.tests, anvil);
      runs.push(run);
      opts.log(
        `suite round ${round} ${server}: ${run.error ? `FAILED: ${run.error}` : `${(run.ms! / 1000).toFixed(2)} s, server CPU ${((run.serverCpuMs ?? Number.NaN) / 1000).toFixed(2)} s`}`,
      );
    }
  }
  const results: SuiteResults = {
    date: new Date().toISOString(),
    loadAverage: { start: loadStart.map(round2), end: loadavg().map(round2) },
    rounds: opts.rounds,
    tests: opts.tests,
    runs,
    summary: summarize(runs, servers),
  };
  if (opts.profileDir) {
    mkdirSync(opts.profileDir, { recursive: true });
    const run = await oneRun('devgate CLI', 0, opts.tests, anvil, opts.profileDir);
    opts.log(`suite under --cpu-prof: ${run.error ? `FAILED: ${run.error}` : `${(run.ms! / 1000).toFixed(2)} s`} (profile in ${opts.profileDir})`);
    results.profile = { dir: opts.profileDir, window: run.window, ms: run.ms, error: run.error };
  }
  return results;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function suiteMarkdown(r: SuiteResults): string {
  const s = (ms?: number) => (ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);
  const lines = [
    `## Test-suite bench (${r.date})`,
    '',
    `bench/suite.ts: deploy an ERC-20, the one-off tests, then ${r.tests} snapshot → transfers → reads → logs → estimateGas → reverting call → revert tests; ` +
      `viem, one request in flight, pollingInterval 100 ms; ${r.rounds} interleaved rounds, a fresh server and suite process per run. ` +
      `Load average ${r.loadAverage.start.join(', ')} at the start, ${r.loadAverage.end.join(', ')} at the end (shared machine: the ratios count, not the seconds).`,
    '',
    '| server | suite (median) | vs anvil | server CPU (median) | suite process CPU | failed runs |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...r.summary.map(
      (x) =>
        `| ${x.server} | ${s(x.medianMs)} | ${x.ratio === undefined ? 'n/a' : `${x.ratio.toFixed(2)}x`} | ${s(x.medianServerCpuMs)}${x.server === 'devgate in-process' ? ' (suite + server)' : ''} | ${s(x.medianSuiteCpuMs)} | ${x.failures}/${x.runs} |`,
    ),
    '',
    `Runs: ${r.runs.map((x) => `${x.server} r${x.round} ${x.error ? 'FAILED' : s(x.ms)}`).join('; ')}`,
  ];
  const failures = r.runs.filter((x) => x.error);
  if (failures.length) lines.push('', ...failures.map((x) => `- ${x.server} round ${x.round}: ${x.error}`));
  return lines.join('\n');
}
