/**
 * What a chain copy of `start({ isolate: 'key' })` costs (docs/isolate.md): the time to make one on a key's first
 * request (wall and the process's CPU), and the heap each holds, idle and after a few writes.
 *
 *   node --expose-gc --import tsx bench/isolate.ts [copies=40] [network=dev|mainnet]
 *
 * In process (gw.provider), one request in flight. Prints one JSON line per network.
 */
import { SHIPPED_CHAINS, start } from '../src/index.js';
import { readSurfaceSeed } from '../test/eth/methods/seed.js';

const COPIES = Number(process.argv[2] ?? 40);
const which = process.argv[3] ?? 'dev';
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const chains = which === 'mainnet' ? [SHIPPED_CHAINS[0]!] : [readSurfaceSeed()];
const gw = await start({ port: 0, chains, isolate: { by: 'key', maxCopies: COPIES + 1 } });
const network = gw.networks[0]!.name;
const account = (await gw.provider(network).request({ method: 'eth_accounts' })) as string[];
const from = account[0]!;
const to = '0x00000000000000000000000000000000000000e1';

const before = heap();
const wall: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < COPIES; i++) {
  const p = gw.provider(network, `copy-${i}`);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await p.request({ method: 'eth_blockNumber' });
  wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
const idle = heap();
const WRITES = 10;
for (let i = 0; i < COPIES; i++) {
  const p = gw.provider(network, `copy-${i}`);
  for (let w = 0; w < WRITES; w++) await p.request({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] });
}
const written = heap();
const copies = gw.isolated(network);
const made = copies.map((c) => c.madeInMs);
const ownBytes = copies.map((c) => c.ownNodeBytes);
console.log(
  JSON.stringify({
    network,
    startHead: String(copies[0]!.blocks === BigInt(WRITES) ? 'ok' : copies[0]!.blocks),
    copies: COPIES,
    makeMs: { median: +median(made).toFixed(3), max: +Math.max(...made).toFixed(3) },
    firstRequestMs: { median: +median(wall).toFixed(3) },
    firstRequestCpuMs: { median: +median(cpu).toFixed(3) },
    heapPerCopyIdleKB: Math.round((idle - before) / COPIES / 1024),
    heapPerCopyAfterWritesKB: Math.round((written - before) / COPIES / 1024),
    writesPerCopy: WRITES,
    ownNodeBytesPerCopy: median(ownBytes),
  }),
);
await gw.stop();
