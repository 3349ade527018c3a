/**
 * CPU time per eth_simulateV1 request of the bench figure `simulate` (3 blocks x 5 calls on latest), devgate
 * in-process on the bench chain: `npx tsx bench/simCpu.ts [requests] [rounds]`. Prints ms of CPU per request
 * (user+system of the whole process, client included) for each round, and a digest of all answers (the same
 * digest before and after a change means the same answers).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { start } from '../src/index.js';
import { benchChain, CACHE_DIR, DEFAULT_CHAIN_OPTIONS, prng } from './seed.js';
import { FIGURES } from './figures.js';
import { startProfile } from './inProcessProfile.js';

const requests = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 3);
const chain = await benchChain(DEFAULT_CHAIN_OPTIONS, () => {});
const gw = await start({ port: 0, chains: [chain.seedPath], cache: { dir: join(CACHE_DIR, 'simcpu-cache') } });
const url = gw.url('bench');
const figure = FIGURES.find((f) => f.id === 'simulate')!;
const post = async (body: string) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();

for (let round = 0; round < rounds; round++) {
  const rand = prng(1000 + round);
  const bodies = Array.from({ length: requests }, (_, i) => {
    const r = figure.make(rand, chain.meta) as { method: string; params: unknown[] };
    return JSON.stringify({ jsonrpc: '2.0', id: i, method: r.method, params: r.params });
  });
  // warm-up
  for (const b of bodies.slice(0, 20)) await post(b);
  const hash = createHash('sha256');
  const stopProfile = await startProfile(process.env.SIM_PROF);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const b of bodies) hash.update(await post(b));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await stopProfile(round);
  const ms = (cpu.user + cpu.system) / 1000 / requests;
  console.log(`round ${round}: ${ms.toFixed(3)} ms CPU/req, ${(wall / requests).toFixed(3)} ms wall/req, digest ${hash.digest('hex').slice(0, 16)}`);
}
await gw.stop();
