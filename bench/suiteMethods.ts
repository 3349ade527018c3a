/**
 * Where the server's CPU goes per JSON-RPC method over the test-suite scenario (bench/suite.ts), in-process through
 * gw.provider('dev'), one request in flight: `npx tsx bench/suiteMethods.ts [tests]`. Each request's CPU is the
 * process's CPU while it is answered (the suite waits meanwhile, so it is the server's work); the rest of the process's
 * CPU is the suite's own (viem: signing, ABI, JSON). Shows which kinds to make cheaper first.
 */
import { join } from 'node:path';
import { custom } from 'viem';
import { start } from '../src/index.js';
import { CACHE_DIR } from './seed.js';
import { runSuite } from './suite.js';

const tests = Number(process.argv[2] ?? 40);
const gw = await start({ port: 0, cache: { dir: join(CACHE_DIR, 'suite-methods-cache') } });
const provider = gw.provider('dev');
const per = new Map<string, { n: number; cpu: number }>();
let filterMade = () => {};
const filterReady = new Promise<void>((r) => (filterMade = r));
const observed = {
  request: async (req: { method: string; params?: unknown }) => {
    const c0 = process.cpuUsage();
    try {
      return await provider.request(req as Parameters<typeof provider.request>[0]);
    } finally {
      const d = process.cpuUsage(c0);
      const a = per.get(req.method) ?? { n: 0, cpu: 0 };
      a.n++;
      a.cpu += d.user + d.system;
      per.set(req.method, a);
      if (req.method === 'eth_newFilter') filterMade();
    }
  },
  on: provider.on.bind(provider),
  removeListener: provider.removeListener.bind(provider),
};
const c0 = process.cpuUsage();
const t0 = performance.now();
await runSuite({ transport: custom(observed, { retryCount: 0 }), watchReady: () => filterReady }, { tests });
const total = process.cpuUsage(c0);
console.log(`suite ${tests} tests: ${(performance.now() - t0).toFixed(0)} ms wall, process CPU ${((total.user + total.system) / 1000).toFixed(0)} ms`);
let sum = 0;
for (const [m, a] of [...per].sort((x, y) => y[1].cpu - x[1].cpu)) {
  sum += a.cpu;
  console.log(`${m.padEnd(28)} ${String(a.n).padStart(5)}  ${(a.cpu / 1000).toFixed(0).padStart(6)} ms  ${(a.cpu / 1000 / a.n).toFixed(3)} ms each`);
}
console.log(`sum in requests ${(sum / 1000).toFixed(0)} ms`);
await gw.stop();
process.exit(0);
