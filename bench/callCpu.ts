import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type ChildServer, serveChild, spawnChild } from './childServer.js';
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
  // One chain cache per tree: the cache keeps one snapshot per network, and its key hashes the engine's sources.
  const tag = createHash('sha256').update(roots[0]!).digest('hex').slice(0, 8);
  // 100 us between samples (V8's default is 1 ms): a short request still gets a few samples.
  await serveChild({ root: roots[0]!, seedPath: chain.seedPath, cacheDir: join(CACHE_DIR, `callCpu-cache-${tag}`), samplingUs: 100 });
}

const cpuMs = (s: ChildServer) => {
  const { user, system } = s.cpu();
  return user + system;
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

const servers: ChildServer[] = [];
for (const root of roots) servers.push(await spawnChild(import.meta.filename, root));
for (const s of servers) await send(s.url, bodies(1, Number(args.warmup)));
if (args.profile) for (const [i] of servers.entries()) await servers[i]!.command('start');
const digests = servers.map(() => createHash('sha256'));
for (let r = 0; r < Number(args.rounds); r++) {
  const list = bodies(100 + r, Number(args.count));
  for (const [i, s] of servers.entries()) {
    const cpu0 = cpuMs(s);
    const t0 = performance.now();
    const answers = await send(s.url, list);
    const cpu = cpuMs(s) - cpu0;
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
