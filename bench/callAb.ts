/**
 * eth_call A/B in one process, without HTTP: the network of each tree given with `--root` (repeat it: old tree,
 * new tree) is made from the bench seed as the gateway makes it (createNetwork, with a chain cache per tree), and
 * the same eth_call bodies (figure callLatest or callHistorical) go through each in turn, round after round:
 * JSON.parse of the body, the network's dispatch (param decoding, method, engine), and the answer's JSON text, one
 * request after the other. Prints CPU time (user + system of this process) per request per tree and round, and a
 * digest of each tree's answers. Finer than bench/callCpu.ts (no sockets), so it shows changes of a few percent.
 *
 *   npx tsx bench/callAb.ts --root /work/wt/base --root . --block random --count 3000 --rounds 6
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { benchChain, CACHE_DIR, DEFAULT_CHAIN_OPTIONS, prng } from './seed.js';
import { FIGURES } from './figures.js';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    block: { type: 'string', default: 'latest' },
    figure: { type: 'string' },
    count: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '4' },
    /** Write a V8 CPU profile (100 us samples) of the measured rounds to this file. */
    profile: { type: 'string' },
  },
});

const chain = await benchChain(DEFAULT_CHAIN_OPTIONS, (l) => console.error(l));
const roots = (args.root ?? [resolve(import.meta.dirname, '..')]).map((r) => resolve(r));
const figure = FIGURES.find((f) => f.id === (args.figure ?? (args.block === 'latest' ? 'callLatest' : 'callHistorical')))!;

interface Tree {
  root: string;
  run(body: string): Promise<string>;
}

async function load(root: string): Promise<Tree> {
  const mod = async <T>(path: string) => (await import(pathToFileURL(join(root, 'src', path)).href)) as T;
  const { createNetwork } = await mod<typeof import('../src/network.js')>('network.ts');
  const { loadSeedFile } = await mod<typeof import('../src/seed/load.js')>('seed/load.ts');
  const { responseText } = await mod<typeof import('../src/rpc/envelope.js')>('rpc/envelope.ts');
  const { systemClock } = await mod<typeof import('../src/clock.js')>('clock.ts');
  const tag = createHash('sha256').update(root).digest('hex').slice(0, 8);
  const network = await createNetwork(loadSeedFile(chain.seedPath), { clock: systemClock, cacheDir: join(CACHE_DIR, `callAb-cache-${tag}`) });
  return {
    root,
    run: async (body) => {
      const req = JSON.parse(body) as { id: number; method: string; params: unknown };
      const text = responseText(await network.execute({ id: req.id, method: req.method, params: req.params }));
      if (!text.includes('"result"')) throw new Error(text.slice(0, 300));
      return text;
    },
  };
}

const bodies = (seed: number, n: number) => {
  const rand = prng(seed);
  return Array.from({ length: n }, (_, i) => {
    const r = figure.make(rand, chain.meta) as { method: string; params: unknown[] };
    return JSON.stringify({ jsonrpc: '2.0', id: i, method: r.method, params: r.params });
  });
};

const trees: Tree[] = [];
for (const root of roots) trees.push(await load(root));
for (const t of trees) for (const b of bodies(1, Number(args.warmup))) await t.run(b);
const session = new Session();
if (args.profile) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
const digests = trees.map(() => createHash('sha256'));
const perTree = trees.map(() => [] as number[]);
for (let r = 0; r < Number(args.rounds); r++) {
  const list = bodies(100 + r, Number(args.count));
  // Alternate which tree goes first, so neither always runs right after the other's garbage.
  const order = r % 2 === 0 ? trees.map((_, i) => i) : trees.map((_, i) => trees.length - 1 - i);
  for (const i of order) {
    const t = trees[i]!;
    const c0 = process.cpuUsage();
    for (const b of list) digests[i]!.update(await t.run(b));
    const c = process.cpuUsage(c0);
    const us = (c.user + c.system) / list.length;
    perTree[i]!.push(us);
    console.log(`round ${r} ${figure.id} root=${t.root}: ${us.toFixed(1)} us CPU/req`);
  }
}
if (args.profile) writeFileSync(args.profile, JSON.stringify((await session.post('Profiler.stop')).profile));
for (const [i, t] of trees.entries()) {
  const sorted = [...perTree[i]!].sort((a, b) => a - b);
  console.log(
    `root=${t.root}: min ${sorted[0]!.toFixed(1)} median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} us CPU/req; answers digest ${digests[i]!.digest('hex').slice(0, 16)}`,
  );
}
process.exit(0);
