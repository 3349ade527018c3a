/**
 * The filters attack of bench/hostileAttacks.ts in one process, to find its long event-loop turns: 1,000
 * eth_newFilter [{}], a transaction of 36,000 LOG0s mined, 10 filters polled. A 1 ms timer records every gap between
 * its ticks; with `--prof` a V8 CPU profile runs alongside and, for each of the longest gaps, the functions sampled
 * inside it are listed by self time (the profile's clock is the monotonic one process.hrtime reads).
 *
 *   npx tsx bench/hostileTurns.ts [--logs 36000] [--filters 1000] [--subs 0] [--prof]
 */
import { parseArgs } from 'node:util';
import { printTurnProfiles, startTurnProfile } from './turnProfile.js';
import { start } from '../src/index.js';

const { values } = parseArgs({
  options: {
    logs: { type: 'string', default: '36000' },
    filters: { type: 'string', default: '1000' },
    /** `logs` subscriptions (over WebSocket) whose topic matches nothing. */
    subs: { type: 'string', default: '0' },
    prof: { type: 'boolean', default: false },
    top: { type: 'string', default: '5' },
  },
});
const LOGS = Number(values.logs);
const FILTERS = Number(values.filters);
const SUBS = Number(values.subs);

const logLoop = (n: number) => `0x61${n.toString(16).padStart(4, '0')}5b60006000a0600190038060035700`;

const gw = await start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } }], dev: {}, bare: 'dev' });
const p = gw.provider('dev');
const rpc = (method: string, params: unknown[] = []) => p.request({ method, params }) as Promise<unknown>;

const ids: unknown[] = [];
for (let i = 0; i < FILTERS; i++) ids.push(await rpc('eth_newFilter', [{}]));
let ws: WebSocket | undefined;
if (SUBS > 0) {
  ws = new WebSocket(gw.wsUrl('dev'));
  await new Promise((r) => ws!.addEventListener('open', r));
  let got = 0;
  const done = new Promise((r) =>
    ws!.addEventListener('message', () => {
      if (++got === SUBS) r(undefined);
    }),
  );
  for (let i = 0; i < SUBS; i++)
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['logs', { topics: [`0x${'ab'.repeat(32)}`] }] }));
  await done;
}
const [from] = (await rpc('eth_accounts')) as string[];
// fetch's first use loads undici: not in the stretch measured.
await (
  await fetch(gw.url('dev'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' })
).text();

const session = values.prof ? await startTurnProfile() : undefined;

/** Each gap between 1 ms ticks: its wall time and the process's CPU time in it (which a loaded machine does not stretch). */
const gaps: { at: bigint; ms: number; cpu: number; stage: string }[] = [];
let stage = 'send';
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
await rpc('eth_sendTransaction', [{ from, data: logLoop(LOGS), gas: '0xf42400' }]);
stage = 'poll';
let answered = 0;
for (const id of ids.slice(0, 10)) {
  // Over HTTP, the answer read as it streams and not parsed: the client's work stays out of the turns measured.
  const res = await fetch(gw.url('dev'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getFilterChanges', params: [id] }),
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) answered += decoder.decode(chunk as Uint8Array, { stream: true }).split('"logIndex"').length - 1;
}
stage = 'after';
await new Promise((r) => setTimeout(r, 50));
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
  `${LOGS} logs, ${FILTERS} filters, ${SUBS} subs: ${took.toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; ${gaps.length} turns; ` +
    `CPU per turn p50 ${q(0.5, 'cpu')} p99 ${q(0.99, 'cpu')} max ${sorted[0]!.cpu.toFixed(1)} ms; wall p99 ${q(0.99, 'ms')} max ${Math.max(...gaps.map((g) => g.ms)).toFixed(1)} ms; ${answered} logs polled`,
);
const top = sorted.slice(0, Number(values.top));
for (const g of top) console.log(`  turn of ${g.cpu.toFixed(1)} ms CPU (${g.ms.toFixed(1)} ms wall) during ${g.stage}`);

if (session) printTurnProfiles((await session.post('Profiler.stop')).profile, top);
ws?.close();
await gw.stop();
