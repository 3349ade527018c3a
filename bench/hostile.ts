/**
 * The hostile table (issue 25): each attack of bench/hostileAttacks.ts against a fresh devgate (the built CLI, open
 * mode: no keys file, no plan) and a fresh anvil, as child processes on 127.0.0.1. While an attack runs, a worker
 * thread (bench/hostileProbe.mjs) probes eth_blockNumber at a steady rate on its own connection (devgate: sepolia,
 * another key, while mainnet is attacked; anvil: the same anvil, its only chain) and samples the server's RSS. Per
 * attack and server: probe p50/p99/max and errors, RSS before and at peak, the attack's time and outcome. A server
 * that leaves a probe unanswered for --freeze-seconds is killed (`froze`), one past --rss-ceiling MB too (`killed`, so
 * that a shared machine keeps its memory), one still attacked after --attack-seconds too (`timed out`), one that exits
 * is `crashed`.
 *
 *   npx tsx bench/hostile.ts                          # every attack; writes bench/results/hostile.{json,md}
 *   npx tsx bench/hostile.ts --attacks mine,sled --no-anvil --scale 0.2   # partial: .devgate-cache/bench/
 *   npm run bench -- --only hostile                   # the same as the first, from bench/run.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { ATTACKS, type Attack, type AttackContext } from './hostileAttacks.js';
import {
  hostileMarkdown,
  hostileTerminal,
  type HostileResult,
  type HostileResults,
  type HostileSide,
  scheduledLatencies,
  summarizeProbe,
} from './hostileReport.js';
import { rpcCall } from './hostileTools.js';
import { CACHE_DIR, REPO_ROOT } from './seed.js';
import { anvilBinary, anvilVersion, DEVGATE_BIN, ensureBuilt, waitForPort } from './servers.js';

export interface HostileOptions {
  /** Attack ids (bench/hostileAttacks.ts); all when absent. */
  attacks?: string[];
  anvil: boolean;
  /** Multiplies each attack's counts and seconds. */
  scale: number;
  probeIntervalMs: number;
  freezeSeconds: number;
  /** An attack still running after this long is stopped (its server killed): `timed out`. */
  attackSeconds: number;
  rssCeilingMb: number;
  log: (line: string) => void;
}

export const HOSTILE_DEFAULTS = { scale: 1, probeIntervalMs: 20, freezeSeconds: 30, attackSeconds: 120, rssCeilingMb: 3072 } as const;
export const ATTACK_IDS = ATTACKS.map((a) => a.id);

/** A server under attack: its process, addresses, and what it wrote to stderr last. */
interface Target {
  name: 'devgate' | 'anvil';
  proc: ChildProcess;
  url: string;
  wsUrl: string;
  probeUrl: string;
  urlForKey(key: string): string;
  stderrTail(): string;
}

function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

function tailOf(proc: ChildProcess): () => string {
  let tail = '';
  proc.stderr!.on('data', (c: Buffer) => (tail = (tail + c.toString()).slice(-4096)));
  return () => tail;
}

/** The CPU time (user + system, ms) a process has used, from /proc/<pid>/stat; undefined when it is gone. */
function cpuOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

async function startTarget(name: 'devgate' | 'anvil', cacheDir: string): Promise<Target> {
  if (name === 'devgate') {
    // Open mode, as `devgate` starts without flags: any key, no plan, no rate limit.
    // HOSTILE_LOOP_TRACE=<file>: the server records its event-loop gaps, GC pauses and probe arrivals there
    // (bench/hostileLoopTrace.mjs).
    const trace = process.env.HOSTILE_LOOP_TRACE ? ['--import', fileURLToPath(new URL('./hostileLoopTrace.mjs', import.meta.url))] : [];
    // HOSTILE_SERVER_NODE_ARGS: more node flags for the server (`--cpu-prof --cpu-prof-dir=...`, `--trace-gc`).
    const extra = process.env.HOSTILE_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const args = [...trace, ...extra, DEVGATE_BIN, '--port', '0', '--host', '127.0.0.1', '--cache-dir', cacheDir];
    const proc = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const stderrTail = tailOf(proc);
    const port = await waitForPort(proc, 'devgate', 120_000);
    proc.stdout!.resume();
    const base = `127.0.0.1:${port}`;
    const urlForKey = (key: string) => `http://${base}/mainnet/v3/${key}`;
    return {
      name,
      proc,
      url: urlForKey('hostile'),
      wsUrl: `ws://${base}/mainnet/ws/v3/hostile`,
      probeUrl: `http://${base}/sepolia/v3/probe`,
      urlForKey,
      stderrTail,
    };
  }
  const binary = anvilBinary();
  if (!binary) throw new Error('anvil missing: the @foundry-rs/anvil dev dependency is not installed');
  // Chain id 1 as devgate's mainnet, so both take the same signed transactions; otherwise anvil's defaults (automine).
  const proc = spawn(binary, ['--port', '0', '--host', '127.0.0.1', '--chain-id', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderrTail = tailOf(proc);
  const port = await waitForPort(proc, 'anvil', 60_000);
  proc.stdout!.resume();
  const url = `http://127.0.0.1:${port}`;
  return { name, proc, url, wsUrl: `ws://127.0.0.1:${port}`, probeUrl: url, urlForKey: () => url, stderrTail };
}

async function waitForAnswer(url: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return void (await rpcCall(url, 'eth_blockNumber'));
    } catch (err) {
      if (i > 600) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

async function stopTarget(t: Target): Promise<void> {
  const p = t.proc;
  if (p.exitCode !== null || p.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const kill = setTimeout(() => p.kill('SIGKILL'), 5000);
    p.once('exit', () => (clearTimeout(kill), resolve()));
    p.kill('SIGTERM');
  });
}

interface ProbeDone {
  answers: number[];
  errors: string[];
  endMs: number;
  peakRssMb: number;
  /** [sent, answered] epoch ms of each probe. */
  epochs: [number, number][];
}

/** Runs one attack against one fresh server. */
async function attackOne(attack: Attack, name: 'devgate' | 'anvil', opts: HostileOptions, cacheDir: string): Promise<HostileSide> {
  let started: Target | undefined;
  let chainId: number;
  try {
    started = await startTarget(name, cacheDir);
    await waitForAnswer(started.url);
    await waitForAnswer(started.probeUrl);
    chainId = Number(await rpcCall(started.url, 'eth_chainId'));
  } catch (err) {
    if (started) await stopTarget(started);
    return { status: `failed to start (${(err as Error).message.split('\n')[0]!.slice(0, 100)})` };
  }
  const target = started;
  const abort = new AbortController();
  const cleanups: (() => void)[] = [];
  const ctx: AttackContext = {
    server: name,
    url: target.url,
    wsUrl: target.wsUrl,
    urlForKey: target.urlForKey,
    chainId,
    scale: opts.scale,
    signal: abort.signal,
    defer: (fn) => void cleanups.push(fn),
  };
  const pid = target.proc.pid!;
  let worker: Worker | undefined;
  try {
    const prepared = attack.prepare ? await attack.prepare(ctx) : undefined;
    const rssBeforeMb = rssOf(pid);
    worker = new Worker(new URL('./hostileProbe.mjs', import.meta.url), { workerData: { url: target.probeUrl, pid, intervalMs: opts.probeIntervalMs } });
    const w = worker;
    const done = new Promise<ProbeDone>((resolve) => w.on('message', (m) => m.kind === 'done' && resolve(m)));
    await new Promise<void>((resolve, reject) => (w.on('message', (m) => m.kind === 'ready' && resolve()), w.once('error', reject)));
    // Why the runner gave up on the server, if it did: it exited, left a probe unanswered too long, or grew too large.
    let overtime: NodeJS.Timeout | undefined;
    let gone = false;
    const gaveUp = new Promise<string>((resolveOutcome) => {
      const resolve = (outcome: string) => ((gone = true), resolveOutcome(outcome));
      overtime = setTimeout(() => {
        target.proc.kill('SIGKILL');
        resolve(`timed out: still running after ${opts.attackSeconds} s (killed)`);
      }, opts.attackSeconds * 1000);
      target.proc.once('exit', (code, signal) => {
        const last = target
          .stderrTail()
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l && !l.startsWith('at ') && !/^\d+: 0x/.test(l));
        const fatal = last.find((l) => /FATAL|out of memory|Error/.test(l)) ?? last.at(-1) ?? '';
        resolve(`crashed: ${signal ?? `exit code ${code}`}${fatal ? `, ${fatal.slice(0, 160)}` : ''}`);
      });
      w.on('message', (m) => {
        if (m.kind !== 'tick') return;
        if (m.waitingMs > opts.freezeSeconds * 1000) {
          target.proc.kill('SIGKILL');
          resolve(`froze: no probe answer for ${opts.freezeSeconds} s (killed)`);
        } else if (m.peakRssMb > opts.rssCeilingMb) {
          target.proc.kill('SIGKILL');
          resolve(`killed: RSS ${m.peakRssMb} MB passed the ${opts.rssCeilingMb} MB ceiling`);
        }
      });
    });
    const t0 = performance.now();
    const serverCpu0 = cpuOf(pid);
    const benchCpu0 = process.cpuUsage();
    const ran = attack.run(ctx, prepared).then(
      (outcome) => outcome,
      async (err: Error) => {
        // A failed request of a dying server: let its exit (or the freeze check) speak first.
        await new Promise((r) => setTimeout(r, 1000));
        return `failed: ${(err.message ?? String(err)).slice(0, 200)}`;
      },
    );
    let outcome = await Promise.race([ran, gaveUp]);
    const attackMs = performance.now() - t0;
    const benchCpu = process.cpuUsage(benchCpu0);
    const serverCpu1 = cpuOf(pid);
    clearTimeout(overtime);
    if (outcome.startsWith('failed') && (target.proc.exitCode !== null || target.proc.signalCode !== null))
      outcome = await Promise.race([gaveUp, new Promise<string>((r) => setTimeout(() => r(outcome), 100))]);
    abort.abort();
    // A moment more of probing: what the attack left behind (a GC, a backlog) counts too; not after the server is gone
    // (its refused connections would count as errors of the attack).
    if (!gone) await new Promise((r) => setTimeout(r, 500));
    worker.postMessage('stop');
    const probe = await done;
    if (process.env.HOSTILE_LOOP_TRACE && name === 'devgate') writeFileSync(`${process.env.HOSTILE_LOOP_TRACE}.probe.json`, JSON.stringify(probe));
    return {
      status: 'ok',
      probe: summarizeProbe(scheduledLatencies(probe.answers, opts.probeIntervalMs, probe.endMs), probe.errors),
      rssBeforeMb,
      peakRssMb: probe.peakRssMb,
      attackMs,
      outcome,
      ...(serverCpu0 !== undefined && serverCpu1 !== undefined
        ? { cpuMs: { server: Math.round(serverCpu1 - serverCpu0), bench: Math.round((benchCpu.user + benchCpu.system) / 1000) } }
        : {}),
    };
  } catch (err) {
    return { status: `failed (${(err as Error).message.slice(0, 160)})` };
  } finally {
    abort.abort();
    for (const fn of cleanups) fn();
    await worker?.terminate();
    await stopTarget(target);
  }
}

/** Runs the table; writes bench/results/hostile.{json,md} when every attack ran at scale 1 on both servers. */
export async function hostileTable(opts: HostileOptions): Promise<HostileResults> {
  const unknown = opts.attacks?.filter((id) => !ATTACK_IDS.includes(id));
  if (unknown?.length) throw new Error(`unknown attack(s) ${unknown.join(', ')}; attacks: ${ATTACK_IDS.join(', ')}`);
  const attacks = ATTACKS.filter((a) => !opts.attacks || opts.attacks.includes(a.id));
  ensureBuilt(opts.log);
  const loadAverageAtStart = loadavg().map((l) => Math.round(l * 100) / 100);
  const binary = opts.anvil ? anvilBinary() : undefined;
  const cacheDir = mkdtempSync(join(tmpdir(), 'devgate-hostile-cache-'));
  const results: HostileResult[] = [];
  opts.log(`hostile: ${attacks.length} attacks, load average ${loadAverageAtStart.join(', ')}`);
  try {
    for (const attack of attacks) {
      const devgate = await attackOne(attack, 'devgate', opts, cacheDir);
      const anvil = binary
        ? await attackOne(attack, 'anvil', opts, cacheDir)
        : { status: opts.anvil ? 'skipped (anvil missing: the @foundry-rs/anvil dev dependency is not installed)' : 'skipped (--no-anvil)' };
      const result = { id: attack.id, label: attack.label, devgate, anvil };
      results.push(result);
      for (const [n, s] of [
        ['devgate', devgate],
        ['anvil', anvil],
      ] as const)
        opts.log(
          `hostile ${attack.id} on ${n}: ${s.status === 'ok' ? `probe p99 ${s.probe?.p99Ms} ms max ${s.probe?.maxMs} ms errors ${s.probe?.errors}, RSS ${s.rssBeforeMb} -> ${s.peakRssMb} MB, ${((s.attackMs ?? 0) / 1000).toFixed(1)} s${s.cpuMs ? ` (CPU: server ${s.cpuMs.server} ms, bench ${s.cpuMs.bench} ms)` : ''}: ${s.outcome}` : s.status}`,
        );
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  const list = cpus();
  const out: HostileResults = {
    date: new Date().toISOString(),
    machine: {
      cpu: list[0]?.model.trim() ?? 'unknown',
      cores: list.length,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      ...(binary ? { anvil: await anvilVersion(binary) } : {}),
      loadAverageAtStart,
      loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100),
    },
    settings: {
      probeIntervalMs: opts.probeIntervalMs,
      freezeSeconds: opts.freezeSeconds,
      attackSeconds: opts.attackSeconds,
      rssCeilingMb: opts.rssCeilingMb,
      scale: opts.scale,
    },
    attacks: results,
  };
  const full = attacks.length === ATTACKS.length && opts.scale === 1 && !!binary;
  const dir = full ? join(REPO_ROOT, 'bench', 'results') : CACHE_DIR;
  const name = full ? 'hostile' : 'hostile-partial';
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(out, null, 2)}\n`);
  writeFileSync(join(dir, `${name}.md`), `${hostileMarkdown(out)}\n`);
  opts.log(`\n${hostileTerminal(out)}\n\nhostile results: ${join(dir, `${name}.json`)}`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      attacks: { type: 'string' },
      'no-anvil': { type: 'boolean', default: false },
      scale: { type: 'string', default: String(HOSTILE_DEFAULTS.scale) },
      'probe-interval': { type: 'string', default: String(HOSTILE_DEFAULTS.probeIntervalMs) },
      'freeze-seconds': { type: 'string', default: String(HOSTILE_DEFAULTS.freezeSeconds) },
      'attack-seconds': { type: 'string', default: String(HOSTILE_DEFAULTS.attackSeconds) },
      'rss-ceiling': { type: 'string', default: String(HOSTILE_DEFAULTS.rssCeilingMb) },
    },
  });
  hostileTable({
    attacks: values.attacks?.split(',').map((s) => s.trim()),
    anvil: !values['no-anvil'],
    scale: Number(values.scale),
    probeIntervalMs: Number(values['probe-interval']),
    freezeSeconds: Number(values['freeze-seconds']),
    attackSeconds: Number(values['attack-seconds']),
    rssCeilingMb: Number(values['rss-ceiling']),
    log: (line) => console.log(line),
  }).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`hostile: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
