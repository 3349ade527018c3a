import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveChild, spawnChild } from './childServer.js';
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

if (args.serve) await serveChild({ root: args.root, seedPath: chain.seedPath, cacheDir: join(CACHE_DIR, 'traceCpu-cache') });

const server = await spawnChild(import.meta.filename, args.root);
const { url, command } = server;
/** The child's CPU time so far, user and system (ms). */
const cpuTimes = () => server.cpu();

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
await server.close();
