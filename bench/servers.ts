/**
 * The two servers under test, as child processes on 127.0.0.1 and free ports: devgate (its CLI as
 * an installed package runs it, `node bin/devgate.js` on the built `dist/`) and anvil (the binary of
 * the `@foundry-rs/anvil` npm package).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchChain, BenchChainOptions } from './seed.js';
import { REPO_ROOT } from './seed.js';

export interface Server {
  readonly name: 'devgate' | 'anvil';
  readonly pid: number;
  /** HTTP JSON-RPC address. */
  readonly url: string;
  /** WebSocket JSON-RPC address. */
  readonly wsUrl: string;
  /** Milliseconds from spawn to the first answer of eth_blockNumber. */
  readonly startupMs: number;
  /** Resident set size in MB (VmRSS of /proc/<pid>/status), or undefined where /proc is missing. */
  rssMb(): number | undefined;
  /** Stops the process (SIGINT, then SIGKILL after 10 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/** One JSON-RPC call (or a batch) over HTTP; returns the parsed answer. */
export async function rpc(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status} from ${url}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** Calls one method and returns its result, throwing on a JSON-RPC error. */
export async function call(url: string, method: string, params: unknown[] = []): Promise<any> {
  const answer = await rpc(url, { jsonrpc: '2.0', id: 1, method, params });
  if (answer.error) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
  return answer.result;
}

function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** Waits for `Listening on <host>:<port>` on stdout; rejects if the process exits first or after `timeoutMs`. */
export function waitForPort(proc: ChildProcess, what: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`${what} did not listen within ${timeoutMs / 1000} s`)), timeoutMs);
    const onOut = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Listening on [^\s]*:(\d+)/.exec(out);
      if (m) done(Number(m[1]));
    };
    const onErr = (chunk: Buffer) => void (err += chunk.toString());
    const onExit = (code: number | null) => fail(new Error(`${what} exited (code ${code}) before listening:\n${(err || out).trim().slice(-1500)}`));
    const cleanup = () => {
      clearTimeout(timer);
      proc.stdout!.off('data', onOut);
      proc.off('exit', onExit);
    };
    const done = (port: number) => (cleanup(), resolve(port));
    const fail = (e: Error) => (cleanup(), proc.kill('SIGKILL'), reject(e));
    proc.stdout!.on('data', onOut);
    proc.stderr!.on('data', onErr);
    proc.once('exit', onExit);
  });
}

async function firstAnswer(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await call(url, 'eth_blockNumber');
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

function stopper(proc: ChildProcess): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  return () =>
    (stopped ??= new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      const kill = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      proc.once('exit', () => (clearTimeout(kill), resolve()));
      proc.kill('SIGINT');
    }));
}

export interface DevgateOptions {
  /** Seed files; none serves the shipped chains. */
  chains?: string[];
  /** The network to talk to. */
  network: string;
  /**
   * Run as a user runs `npx devgate`: no `--plan` (unlimited) and the bare address (`http://127.0.0.1:<port>/`, the
   * built-in dev network) as `url` and `wsUrl` instead of the network's path.
   */
  bare?: boolean;
  /** Write a V8 CPU profile into this folder (node --cpu-prof). */
  cpuProfDir?: string;
  /** devgate's cache of built chains (`--cache-dir`), where its CLI has one. */
  cacheDir?: string;
  timeoutMs?: number;
  /** More CLI flags (the fork bench's --fork-url ...). */
  extraArgs?: string[];
}

/** devgate's command: the installed package's bin, which runs the built `dist/cli.js`. */
export const DEVGATE_BIN = join(REPO_ROOT, 'bin', 'devgate.js');
const BUILT_CLI = join(REPO_ROOT, 'dist', 'cli.js');

/** The newest modification time (ms) of any file under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds `dist/` (`npm run build`: the bundle, `dist/cli.js` among its files, and tsc's type check
 * and declarations) when `dist/cli.js` is missing or older than the newest file under `src/`, so the
 * bench never measures stale code. A build with type errors still emits; it is reported and the
 * bench goes on.
 */
export function ensureBuilt(log: (line: string) => void): void {
  const srcNewest = newestMtime(join(REPO_ROOT, 'src'));
  if (existsSync(BUILT_CLI) && statSync(BUILT_CLI).mtimeMs >= srcNewest) return;
  log(existsSync(BUILT_CLI) ? 'dist/ is older than src/: building it (npm run build)' : 'dist/ is missing: building it (npm run build)');
  const run = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', shell: process.platform === 'win32' });
  if (run.status !== 0) log(`warning: npm run build reported errors:\n${(run.stdout + run.stderr).trim().slice(0, 1500)}`);
  if (!existsSync(BUILT_CLI)) throw new Error('npm run build did not write dist/cli.js');
}

/** Whether devgate's CLI takes `--cache-dir` (a cache of built chains on disk). */
export async function devgateHasCache(): Promise<boolean> {
  const proc = spawn(process.execPath, [DEVGATE_BIN, '--help'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((r) => proc.once('exit', r));
  return out.includes('--cache-dir');
}

/** Starts devgate's CLI on a free port and waits for its first answer. */
export async function startDevgate(opts: DevgateOptions): Promise<Server> {
  const args = [
    ...(opts.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProfDir] : []),
    // The growth plan has no rate limits: the bench measures the node, not the plan's credits per second.
    DEVGATE_BIN,
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    ...(opts.bare ? [] : ['--plan', 'growth']),
    ...(opts.chains ?? []).flatMap((c) => ['--chain', c]),
    ...(opts.cacheDir ? ['--cache-dir', opts.cacheDir] : []),
    ...(opts.extraArgs ?? []),
  ];
  const started = performance.now();
  const proc = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await waitForPort(proc, 'devgate', opts.timeoutMs ?? 900_000);
  const url = opts.bare ? `http://127.0.0.1:${port}/` : `http://127.0.0.1:${port}/${opts.network}/v3/bench`;
  await firstAnswer(url, 30_000);
  return {
    name: 'devgate',
    pid: proc.pid!,
    url,
    wsUrl: opts.bare ? `ws://127.0.0.1:${port}/` : `ws://127.0.0.1:${port}/${opts.network}/ws/v3/bench`,
    startupMs: performance.now() - started,
    rssMb: () => rssOf(proc.pid!),
    stop: stopper(proc),
  };
}

/** The anvil binary of the installed `@foundry-rs/anvil-<platform>-<arch>` package, if any. */
export function anvilBinary(): string | undefined {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  const path = join(REPO_ROOT, 'node_modules', '@foundry-rs', `anvil-${process.platform}-${arch}`, 'bin', exe);
  return existsSync(path) ? path : undefined;
}

export async function anvilVersion(binary: string): Promise<string> {
  const proc = spawn(binary, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((r) => proc.once('exit', r));
  return /anvil Version: (\S+)/.exec(out)?.[1] ?? out.split('\n')[0]!.trim();
}

/** Starts anvil with the chain's genesis settings, mining only on `evm_mine`. */
export async function startAnvil(binary: string, options: BenchChainOptions, extraArgs: string[] = []): Promise<Server> {
  const args = [
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--chain-id',
    String(options.chainId),
    '--hardfork',
    options.hardfork,
    '--timestamp',
    String(options.genesisTimestamp),
    '--base-fee',
    options.baseFeePerGas.toString(),
    '--gas-limit',
    String(options.gasLimit),
    '--accounts',
    String(options.senders),
    '--balance',
    '10000',
    '--no-mining',
    '--order',
    'fifo',
    ...extraArgs,
  ];
  const started = performance.now();
  const proc = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // anvil logs every request to stdout: keep draining it so the pipe never blocks.
  proc.stdout!.resume();
  const port = await waitForPort(proc, 'anvil', 60_000);
  const url = `http://127.0.0.1:${port}`;
  await firstAnswer(url, 30_000);
  return {
    name: 'anvil',
    pid: proc.pid!,
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    startupMs: performance.now() - started,
    rssMb: () => rssOf(proc.pid!),
    stop: stopper(proc),
  };
}

/** Starts anvil as a user runs it: no flags (chain id 31337, the 10 dev accounts, automine) but a free port. */
export async function startAnvilDev(binary: string, extraArgs: string[] = []): Promise<Server> {
  const started = performance.now();
  const proc = spawn(binary, ['--port', '0', '--host', '127.0.0.1', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.resume();
  const port = await waitForPort(proc, 'anvil', 60_000);
  const url = `http://127.0.0.1:${port}`;
  await firstAnswer(url, 30_000);
  return {
    name: 'anvil',
    pid: proc.pid!,
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    startupMs: performance.now() - started,
    rssMb: () => rssOf(proc.pid!),
    stop: stopper(proc),
  };
}

/** CPU time (ms, user + system) a process has used so far, from /proc/<pid>/stat; undefined where /proc is missing. */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** Replays the chain on anvil: each block's raw transactions, then `evm_mine` at the block's timestamp. */
export async function replayOnAnvil(anvil: Server, chain: BenchChain): Promise<void> {
  for (const [i, block] of chain.blocks.entries()) {
    const answers = (await rpc(
      anvil.url,
      block.raw.map((raw, id) => ({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] })),
    )) as any[];
    const failed = answers.find((a) => a.error);
    if (failed) throw new Error(`anvil refused a transaction of block ${i + 1}: ${failed.error.message}`);
    await call(anvil.url, 'evm_mine', [block.timestamp]);
  }
  const head = Number(await call(anvil.url, 'eth_blockNumber'));
  if (head !== chain.meta.head) throw new Error(`anvil is at block ${head} after the replay, expected ${chain.meta.head}`);
  const last = await call(anvil.url, 'eth_getBlockByNumber', ['latest', false]);
  const expected = chain.blocks.at(-1)!.raw.length;
  if (last.transactions.length !== expected) throw new Error(`anvil's last block has ${last.transactions.length} transactions, expected ${expected}`);
}
