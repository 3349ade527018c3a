/**
 * Server CPU time per eth_call (the bench figures callLatest / callHistorical: an ERC-20 balanceOf of a random
 * holder), a quieter measure than req/s on a shared machine. Starts the gateway of each tree given with `--root`
 * (default: this one; repeat it to compare trees) on the bench chain, one child process per tree, then measures them
 * in turn, round after round (A, B, A, B, ...), with the same requests: `--concurrency` requests in flight over
 * keep-alive connections. Prints each child's CPU time (user + system, /proc/<pid>/stat) per request, and a digest
 * of the answers (the same digest for every tree means the same answers).
 *
 *   npx tsx bench/callCpu.ts --root /work/wt/base --root . --block random --count 3000 --rounds 4
 *   npx tsx bench/callCpu.ts --block latest --profile /tmp/call   (writes /tmp/call-0.cpuprofile)
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { benchChain, CACHE_DIR, DEFAULT_CHAIN_OPTIONS, prng } from './seed.js';
import { FIGURES } from './figures.js';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    /** latest (figure callLatest) or random (figure callHistorical). */
    block: { type: 'string', default: 'latest' },
    /** Another HTTP figure of bench/figures.ts instead (e.g. blockNumber, the floor of any request). */
    figure: { type: 'string' },
    count: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    /** Write a V8 CPU profile of each server during its measured requests to `<profile>-<i>.cpuprofile`. */
    profile: { type: 'string' },
    /** (internal) be the server of one tree: start its gateway, print its address, follow commands on stdin. */
    serve: { type: 'boolean', default: false },
  },
});

const chain = await benchChain(DEFAULT_CHAIN_OPTIONS, (l) => console.error(l));
const roots = (args.root ?? [resolve(import.meta.dirname, '..')]).map((r) => resolve(r));

if (args.serve) {
  const root = roots[0]!;
  const { start } = (await import(pathToFileURL(join(root, 'src', 'index.ts')).href)) as typeof import('../src/index.js');
  // One chain cache per tree: the cache keeps one snapshot per network, and its key hashes the engine's sources.
  const tag = createHash('sha256').update(root).digest('hex').slice(0, 8);
  const gw = await start({ port: 0, chains: [chain.seedPath], cache: { dir: join(CACHE_DIR, `callCpu-cache-${tag}`) } });
  const session = new Session();
  session.connect();
  console.log(`URL ${gw.url('bench')}`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'start') {
      await session.post('Profiler.enable');
      // 100 us between samples (V8's default is 1 ms): a short request still gets a few samples.
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
    } else if (line.startsWith('stop ')) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(line.slice(5), JSON.stringify(profile));
    }
    console.log('ok');
  }
  await gw.stop();
  process.exit(0);
}

interface Server {
  root: string;
  pid: number;
  url: string;
  command(c: string): Promise<void>;
  close(): Promise<void>;
}

async function serve(root: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve', '--root', root], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async () => (await lines.next()).value as string;
  let first = await nextLine();
  while (!first.startsWith('URL ')) first = await nextLine();
  return {
    root,
    pid: child.pid!,
    url: first.slice(4),
    command: async (c) => {
      child.stdin!.write(`${c}\n`);
      await nextLine();
    },
    close: async () => {
      child.stdin!.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};

const figure = FIGURES.find((f) => f.id === (args.figure ?? (args.block === 'latest' ? 'callLatest' : 'callHistorical')))!;
const bodies = (seed: number, n: number) => {
  const rand = prng(seed);
  return Array.from({ length: n }, (_, i) => {
    const r = figure.make(rand, chain.meta) as { method: string; params: unknown[] };
    return JSON.stringify({ jsonrpc: '2.0', id: i, method: r.method, params: r.params });
  });
};

/** Sends `list` with `concurrency` in flight; returns the answers in order. */
async function send(url: string, list: string[]): Promise<string[]> {
  const out = new Array<string>(list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const i = next++;
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: list[i] });
      const text = await res.text();
      if (!text.includes('"result"')) throw new Error(text.slice(0, 300));
      out[i] = text;
    }
  };
  await Promise.all(Array.from({ length: Number(args.concurrency) }, worker));
  return out;
}

const servers: Server[] = [];
for (const root of roots) servers.push(await serve(root));
for (const s of servers) await send(s.url, bodies(1, Number(args.warmup)));
if (args.profile) for (const [i] of servers.entries()) await servers[i]!.command('start');
const digests = servers.map(() => createHash('sha256'));
for (let r = 0; r < Number(args.rounds); r++) {
  const list = bodies(100 + r, Number(args.count));
  for (const [i, s] of servers.entries()) {
    const cpu0 = cpuMs(s.pid);
    const t0 = performance.now();
    const answers = await send(s.url, list);
    const cpu = cpuMs(s.pid) - cpu0;
    const wall = performance.now() - t0;
    for (const a of answers) digests[i]!.update(a);
    console.log(
      `round ${r} ${figure.id} root=${s.root}: ${((cpu * 1000) / list.length).toFixed(1)} us server CPU/req, ${((wall * 1000) / list.length).toFixed(1)} us wall/req`,
    );
  }
}
if (args.profile) for (const [i, s] of servers.entries()) await s.command(`stop ${args.profile}-${i}.cpuprofile`);
for (const [i, s] of servers.entries()) console.log(`answers digest root=${s.root}: ${digests[i]!.digest('hex').slice(0, 16)}`);
for (const s of servers) await s.close();
