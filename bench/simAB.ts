/**
 * Server CPU per eth_simulateV1 request of two trees in one process, interleaved batch by batch (robust to a busy
 * machine: both see the same load): `npx tsx bench/simAB.ts <other tree> [batches] [batch size]`. Each tree's own
 * gateway (its own modules and node_modules) serves the bench chain; batches of the `simulate` figure's requests
 * alternate between them (order swapped each round); the CPU of each batch (user+system, client included) is
 * counted to the tree that answered it. Prints the median ms per request of each and a digest of each one's answers.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { benchChain, CACHE_DIR, DEFAULT_CHAIN_OPTIONS, prng } from './seed.js';
import { FIGURES } from './figures.js';

const other = resolve(process.argv[2] ?? '');
const batches = Number(process.argv[3] ?? 20);
const size = Number(process.argv[4] ?? 40);
const here = resolve(import.meta.dirname, '..');
const chain = await benchChain(DEFAULT_CHAIN_OPTIONS, () => {});
const figure = FIGURES.find((f) => f.id === 'simulate')!;
type Start = (o: unknown) => Promise<{ url(n: string): string; stop(): Promise<void> }>;
const trees = [
  { name: 'other', root: other },
  { name: 'this', root: here },
];
const gws: { name: string; root: string; gw: Awaited<ReturnType<Start>>; url: string; ms: number[]; hash: ReturnType<typeof createHash> }[] = [];
for (const t of trees) {
  const { start } = (await import(join(t.root, 'src/index.ts'))) as { start: Start };
  const gw = await start({ port: 0, chains: [chain.seedPath], cache: { dir: join(CACHE_DIR, `simab-cache-${t.name}`) } });
  gws.push({ ...t, gw, url: gw.url('bench'), ms: [] as number[], hash: createHash('sha256') });
}
const post = async (url: string, body: string) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
const rand = prng(4242);
const bodies = Array.from({ length: size * 4 }, (_, i) => {
  const r = figure.make(rand, chain.meta) as { method: string; params: unknown[] };
  return JSON.stringify({ jsonrpc: '2.0', id: i, method: r.method, params: r.params });
});
// warm-up
for (const g of gws) for (const b of bodies) await post(g.url, b);
for (let round = 0; round < batches; round++) {
  const order = round % 2 === 0 ? gws : [...gws].reverse();
  const slice = bodies.slice((round % 4) * size, (round % 4) * size + size);
  for (const g of order) {
    const cpu0 = process.cpuUsage();
    for (const b of slice) {
      const text = await post(g.url, b);
      if (round < 4) g.hash.update(text);
    }
    const cpu = process.cpuUsage(cpu0);
    g.ms.push((cpu.user + cpu.system) / 1000 / size);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const g of gws)
  console.log(
    `${g.name.padEnd(5)} median ${median(g.ms).toFixed(3)} ms CPU/req, min ${Math.min(...g.ms).toFixed(3)}, digest ${g.hash.digest('hex').slice(0, 16)} (${g.root})`,
  );
const ratio = gws[1]!.ms.map((m, i) => m / gws[0]!.ms[i]!);
console.log(`this/other per round: median ${median(ratio).toFixed(3)}`);
for (const g of gws) await g.gw.stop();
