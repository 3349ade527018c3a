/**
 * The log fan-out attack of bench/hostileAttacks.ts in one process, to find its long event-loop turns: one WebSocket
 * connection with 1,000 `logs` subscriptions (the key's cap; the attack's other three connections are refused), then
 * 3 transactions of 2,000 logs, each waited for, then the fan-out for a while. The reader takes what it is sent
 * without parsing it, so the client's work stays out of the turns measured. A 1 ms timer records every gap between
 * its ticks (wall and CPU time, `process.cpuUsage()`, which a loaded machine does not stretch the way it does wall
 * time); with `--prof` a V8 CPU profile lists, for each of the longest turns, the functions sampled inside it.
 *
 *   npx tsx bench/hostileFanTurns.ts [--subs 1000] [--logs 2000] [--txs 3] [--seconds 6] [--prof] [--stage fan-out]
 */
import type { Socket } from 'node:net';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { printTurnProfiles, startTurnProfile } from './turnProfile.js';
import { logLoop } from './hostileTools.js';
import { start } from '../src/index.js';

const { values } = parseArgs({
  options: {
    subs: { type: 'string', default: '1000' },
    logs: { type: 'string', default: '2000' },
    txs: { type: 'string', default: '3' },
    /** Connections, each asking for --subs subscriptions (the attack's 4; the key holds 1,000 in all). */
    conns: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '6' },
    prof: { type: 'boolean', default: false },
    top: { type: 'string', default: '5' },
    /** Profile only the longest turns of this stage (send 1, send 2, ..., fan-out). */
    stage: { type: 'string' },
  },
});
const SUBS = Number(values.subs);

const gw = await start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } }], dev: {}, bare: 'dev' });
const p = gw.provider('dev');
const rpc = (method: string, params: unknown[] = []) => p.request({ method, params }) as Promise<unknown>;

const gaps: { at: bigint; ms: number; cpu: number; stage: string }[] = [];
let stage = 'subscribe';
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
const sockets: WebSocket[] = [];
let bytes = 0;
// As the attack: each connection asks for SUBS subscriptions at once (past the key's 1,000 they are refused).
for (let c = 0; c < Number(values.conns); c++) {
  const ws = new WebSocket(gw.wsUrl('dev'));
  sockets.push(ws);
  await new Promise((r) => ws.once('open', r));
  ws.on('error', () => {});
  let answered = 0;
  const ready = new Promise<void>((resolve) =>
    ws.on('message', () => {
      if (++answered === SUBS) resolve();
    }),
  );
  stage = `subscribe ${c + 1}`;
  for (let i = 0; i < SUBS; i++) ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['logs', {}] }));
  if (SUBS > 0) await ready;
  const socket = (ws as unknown as { _socket: Socket })._socket;
  socket.removeAllListeners('data');
  socket.on('data', (b: Buffer) => (bytes += b.length));
}
const [from] = (await rpc('eth_accounts')) as string[];

const session = values.prof ? await startTurnProfile() : undefined;

const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < Number(values.txs); i++) {
  stage = `send ${i + 1}`;
  await rpc('eth_sendTransaction', [{ from, data: logLoop(Number(values.logs)), gas: '0xf42400' }]);
}
stage = 'fan-out';
await new Promise((r) => setTimeout(r, Number(values.seconds) * 1000));
done = true;
await ticker;
const took = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);

const sorted = [...gaps].sort((a, b) => b.cpu - a.cpu);
const q = (x: number, key: 'ms' | 'cpu') =>
  [...gaps]
    .map((g) => g[key])
    .sort((a, b) => a - b)
    [Math.floor(gaps.length * x)]!.toFixed(1);
console.log(
  `${SUBS} subs, ${values.txs} × ${values.logs} logs: ${took.toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; ${gaps.length} turns; ` +
    `CPU per turn p50 ${q(0.5, 'cpu')} p99 ${q(0.99, 'cpu')} p999 ${q(0.999, 'cpu')} max ${sorted[0]!.cpu.toFixed(1)} ms; wall p99 ${q(0.99, 'ms')} ` +
    `max ${Math.max(...gaps.map((g) => g.ms)).toFixed(1)} ms; ${(bytes / 2 ** 20).toFixed(0)} MB read`,
);
const top = sorted.filter((g) => values.stage === undefined || g.stage === values.stage).slice(0, Number(values.top));
const stages = [...new Set(gaps.map((g) => g.stage))];
console.log(
  `longest turn by stage (wall / CPU ms): ${stages
    .map((st) => {
      const of = gaps.filter((g) => g.stage === st);
      return `${st} ${Math.max(...of.map((g) => g.ms)).toFixed(1)} / ${Math.max(...of.map((g) => g.cpu)).toFixed(1)}`;
    })
    .join('; ')}`,
);
for (const g of top) console.log(`  turn of ${g.cpu.toFixed(1)} ms CPU (${g.ms.toFixed(1)} ms wall) during ${g.stage}`);

if (session) printTurnProfiles((await session.post('Profiler.stop')).profile, top);
for (const ws of sockets) ws.terminate();
await gw.stop();
