/**
 * The slow-readers attack of bench/hostileAttacks.ts in one process, to find its long event-loop turns: 48 WebSocket
 * connections subscribed to newHeads that never read, anvil_mine 500 for a while, then the readers resume. A 1 ms
 * timer records every gap between its ticks (wall and CPU); with `--prof` a V8 CPU profile lists, for each of the
 * longest gaps, the functions sampled inside it by self time.
 *
 *   npx tsx bench/hostileSlowTurns.ts [--readers 48] [--seconds 8] [--prof]
 */
import { parseArgs } from 'node:util';
import { printTurnProfiles, startTurnProfile } from './turnProfile.js';
import WebSocket from 'ws';
import { start } from '../src/index.js';

const { values } = parseArgs({
  options: {
    readers: { type: 'string', default: '48' },
    seconds: { type: 'string', default: '8' },
    prof: { type: 'boolean', default: false },
    top: { type: 'string', default: '5' },
  },
});
const READERS = Number(values.readers);

const gw = await start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } }], dev: {}, bare: 'dev' });
const p = gw.provider('dev');
const rpc = (method: string, params: unknown[] = []) => p.request({ method, params }) as Promise<unknown>;

const closes: string[] = [];
const clients: WebSocket[] = [];
for (let i = 0; i < READERS; i++) {
  const ws = new WebSocket(gw.wsUrl('dev'));
  await new Promise((r) => ws.once('open', r));
  ws.on('close', (code, reason) => closes.push(`${code} ${reason.toString()}`.trim()));
  ws.on('error', () => {});
  const answered = new Promise((r) => ws.once('message', r));
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
  await answered;
  clients.push(ws);
}
for (const ws of clients) ws.pause();

const session = values.prof ? await startTurnProfile() : undefined;

const gaps: { at: bigint; ms: number; cpu: number; stage: string }[] = [];
let stage = 'mine';
let done = false;
const ticker = (async () => {
  let last = process.hrtime.bigint();
  let lastCpu = process.cpuUsage();
  while (!done) {
    await new Promise((r) => setTimeout(r, 1));
    const now = process.hrtime.bigint();
    const cpu = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    gaps.push({ at: last, ms: Number(now - last) / 1e6, cpu: (cpu.user + cpu.system) / 1000, stage });
    last = now;
  }
})();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let mined = 0;
while (performance.now() - t0 < Number(values.seconds) * 1000) {
  await rpc('anvil_mine', ['0x1f4']);
  mined += 500;
}
stage = 'resume';
// The readers take what was queued without parsing it: the client's work stays out of the turns measured.
for (const ws of clients) {
  const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
  socket.removeAllListeners('data');
  socket.on('data', () => {});
  socket.resume();
}
await new Promise((r) => setTimeout(r, 1000));
done = true;
await ticker;
const took = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);

const sorted = [...gaps].sort((a, b) => b.ms - a.ms);
const q = (x: number, key: 'ms' | 'cpu') =>
  [...gaps]
    .map((g) => g[key])
    .sort((a, b) => a - b)
    [Math.floor(gaps.length * x)]!.toFixed(1);
const tally = new Map<string, number>();
for (const c of closes) tally.set(c, (tally.get(c) ?? 0) + 1);
console.log(
  `${READERS} readers, ${mined} blocks: ${took.toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; ${gaps.length} turns; ` +
    `CPU per turn p99 ${q(0.99, 'cpu')}; wall p99 ${q(0.99, 'ms')} max ${sorted[0]!.ms.toFixed(1)} ms; closes ${[...tally].map(([c, n]) => `${n}× ${c}`).join(', ') || 'none'}`,
);
const top = sorted.slice(0, Number(values.top));
for (const g of top) console.log(`  turn of ${g.ms.toFixed(1)} ms wall (${g.cpu.toFixed(1)} ms CPU) during ${g.stage}`);

if (session) printTurnProfiles((await session.post('Profiler.stop')).profile, top);
for (const ws of clients) ws.terminate();
await gw.stop();
