/**
 * CPU time per debug_traceTransaction request (a quieter measure than req/s on a shared machine): starts the gateway
 * of the tree at `--root` (default: this one) on the bench chain in a child process, traces `--count` random bench
 * transactions one after the other over HTTP and prints the child's CPU time (user + system, /proc/<pid>/stat) per
 * request: the server's work only, not the client's. Run it for an old and a new tree, interleaved, to compare.
 *
 *   npx tsx bench/traceCpu.ts --tracer callTracer --count 400
 *   npx tsx bench/traceCpu.ts --root /tmp/base --tracer struct --profile /tmp/struct.cpuprofile
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { benchChain, CACHE_DIR, DEFAULT_CHAIN_OPTIONS, prng } from './seed.js';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: resolve(import.meta.dirname, '..') },
    tracer: { type: 'string', default: 'callTracer' },
    count: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    /** Only transactions at this index of their block (default: any). */
    index: { type: 'string' },
    /** Write a V8 CPU profile of the server during the measured requests to this file. */
    profile: { type: 'string' },
    /** (internal) be the server: start the gateway, print its address, follow commands on stdin. */
    serve: { type: 'boolean', default: false },
  },
});

const chain = await benchChain(DEFAULT_CHAIN_OPTIONS, (l) => console.error(l));

if (args.serve) {
  const { start } = (await import(pathToFileURL(join(args.root, 'src', 'index.ts')).href)) as typeof import('../src/index.js');
  const gw = await start({ port: 0, chains: [chain.seedPath], cache: { dir: join(CACHE_DIR, 'traceCpu-cache') } });
  const session = new Session();
  session.connect();
  console.log(`URL ${gw.url('bench')}`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'start') {
      await session.post('Profiler.enable');
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

const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve', '--root', args.root], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
const nextLine = async () => (await lines.next()).value as string;
let first = await nextLine();
while (!first.startsWith('URL ')) first = await nextLine();
const url = first.slice(4);
const command = async (c: string) => {
  child.stdin!.write(`${c}\n`);
  await nextLine();
};
/** The child's CPU time so far, user and system (ms). */
const cpuTimes = () => {
  const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: (Number(f[11]) * 1000) / 100, system: (Number(f[12]) * 1000) / 100 };
};

const config = args.tracer === 'struct' ? {} : { tracer: args.tracer };
const rand = prng(1234);
const hashes = chain.meta.txHashes.slice(10).filter((_, i) => args.index === undefined || i % 10 === Number(args.index));
const pick = () => hashes[Math.floor(rand() * hashes.length)]!;

async function trace(hash: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: [hash, config] }),
  });
  const text = await res.text();
  if (text.includes('"error"')) throw new Error(text.slice(0, 300));
  return text.length;
}

for (let i = 0; i < Number(args.warmup); i++) await trace(pick());
if (args.profile) await command('start');
for (let r = 0; r < Number(args.rounds); r++) {
  const n = Number(args.count);
  const cpu0 = cpuTimes();
  const t0 = performance.now();
  let bytes = 0;
  for (let i = 0; i < n; i++) bytes += await trace(pick());
  const cpu1 = cpuTimes();
  const system = cpu1.system - cpu0.system;
  const cpu = cpu1.user - cpu0.user + system;
  const wall = performance.now() - t0;
  console.log(
    `${args.tracer} root=${args.root}: ${(cpu / n).toFixed(3)} ms server CPU/req (${(system / n).toFixed(3)} system), ${(wall / n).toFixed(3)} ms wall/req, ${(bytes / n).toFixed(0)} B/answer`,
  );
}
if (args.profile) await command(`stop ${args.profile}`);
child.stdin!.end();
await new Promise((r) => child.once('exit', r));
