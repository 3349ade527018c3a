/**
 * Reads what `HOSTILE_LOOP_TRACE=<file> npx tsx bench/hostile.ts --no-anvil --attacks <one>` wrote (the server's
 * trace, bench/hostileLoopTrace.mjs, and the probe's send and answer times) and says where the slowest probes' time
 * went: waiting to be read by the server (split into the server's main thread on a CPU, waiting for one, idle, in GC),
 * being served, and coming back; and the server's event-loop gaps overall.
 *
 *   npx tsx bench/hostileTraceReport.ts <file> [--probes 15]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { probes: { type: 'string', default: '15' }, interval: { type: 'string', default: '20' } },
});
const file = positionals[0]!;
const server = JSON.parse(readFileSync(file, 'utf8')) as {
  timeOrigin: number;
  ticks: [number, number, number, number, number][];
  gcs: { at: number; ms: number; kind: number }[];
  probes: [number, number][];
  threads?: { tid: string; name: string; cpu: number; wait: number }[];
};
const probe = JSON.parse(readFileSync(`${file}.probe.json`, 'utf8')) as { epochs: [number, number][]; answers: number[] };
const o = server.timeOrigin;
const ticks = server.ticks.map(([at, gap, cpu, wait, idle]) => ({ from: o + at, to: o + at + gap, gap, cpu, wait, idle }));
const gcs = server.gcs.map((g) => ({ from: o + g.at, to: o + g.at + g.ms, ms: g.ms, kind: g.kind }));
const reads = server.probes.map(([at, ms]) => ({ at: o + at, ms }));

const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;
const f = (n: number) => n.toFixed(1);

/** Sums of the ticks' parts inside [from, to], each tick counted by its overlap. */
function inside(from: number, to: number) {
  let cpu = 0;
  let wait = 0;
  let idle = 0;
  let gc = 0;
  let longest = 0;
  for (const t of ticks) {
    if (t.to <= from || t.from >= to) continue;
    const share = (Math.min(t.to, to) - Math.max(t.from, from)) / t.gap;
    cpu += t.cpu * share;
    wait += t.wait * share;
    idle += t.idle * share;
    longest = Math.max(longest, t.gap);
  }
  for (const g of gcs) if (g.to > from && g.from < to) gc += Math.min(g.to, to) - Math.max(g.from, from);
  return { cpu, wait, idle, gc, longest };
}

// Each counted probe, matched to the server's read of it (the first read at or after its send).
let r = 0;
const interval = Number(values.interval);
const rows = probe.epochs.map(([sent, answered], k) => {
  while (r < reads.length && reads[r]!.at < sent - 1) r++;
  const read = reads[r];
  r++;
  const scheduled = probe.answers[k]! - k * interval;
  return {
    k,
    sent,
    answered,
    rtt: answered - sent,
    scheduled,
    toRead: read ? read.at - sent : NaN,
    serve: read?.ms ?? NaN,
    back: read ? answered - read.at - read.ms : NaN,
    read,
  };
});
const sched = rows.map((x) => x.scheduled);
console.log(
  `${rows.length} probes: scheduled latency p50 ${f(q(sched, 0.5))} p99 ${f(q(sched, 0.99))} max ${f(Math.max(...sched))} ms; ` +
    `round trip p50 ${f(
      q(
        rows.map((x) => x.rtt),
        0.5,
      ),
    )} p99 ${f(
      q(
        rows.map((x) => x.rtt),
        0.99,
      ),
    )} max ${f(Math.max(...rows.map((x) => x.rtt)))} ms; ` +
    `probes whose round trip passed the interval: ${rows.filter((x) => x.rtt > interval).length}`,
);
const gaps = ticks.map((t) => t.gap);
const busyGaps = ticks.filter((t) => t.idle < 0.2);
console.log(
  `server: ${ticks.length} timer gaps p50 ${f(q(gaps, 0.5))} p99 ${f(q(gaps, 0.99))} p999 ${f(q(gaps, 0.999))} max ${f(Math.max(...gaps))} ms; ` +
    `main thread CPU ${f(ticks.reduce((s, t) => s + t.cpu, 0))} ms, waiting for a CPU ${f(ticks.reduce((s, t) => s + t.wait, 0))} ms; ` +
    `GC ${gcs.length} pauses, ${f(gcs.reduce((s, g) => s + g.ms, 0))} ms, longest ${f(Math.max(0, ...gcs.map((g) => g.ms)))} ms (kinds ${JSON.stringify(
      gcs.reduce<Record<number, number>>((m, g) => ((m[g.kind] = (m[g.kind] ?? 0) + 1), m), {}),
    )}); busy gaps ${busyGaps.length}`,
);
if (server.threads)
  console.log(
    `server threads (CPU / waiting for a CPU, ms, whole run): ${server.threads
      .filter((t) => t.cpu > 50)
      .map((t) => `${t.name} ${f(t.cpu)} / ${f(t.wait)}`)
      .join('; ')}`,
  );
console.log('longest server gaps (ms: wall = cpu + waiting for a CPU + idle + rest):');
for (const t of [...ticks].sort((a, b) => b.gap - a.gap).slice(0, 10)) {
  const g = inside(t.from, t.to).gc;
  console.log(`  ${f(t.gap)} = cpu ${f(t.cpu)} + wait ${f(t.wait)} + idle ${f(t.idle)}; gc ${f(g)}`);
}
console.log(`slowest probes by scheduled latency (ms), with the ${values.probes} before each:`);
const worst = [...rows].sort((a, b) => b.scheduled - a.scheduled).slice(0, Number(values.probes));
for (const x of worst) {
  const s = x.read ? inside(x.sent, x.read.at) : undefined;
  console.log(
    `  #${x.k} scheduled ${f(x.scheduled)} rtt ${f(x.rtt)}: to read ${f(x.toRead)} (server cpu ${f(s?.cpu ?? NaN)}, wait ${f(s?.wait ?? NaN)}, idle ${f(s?.idle ?? NaN)}, gc ${f(s?.gc ?? NaN)}, longest gap ${f(s?.longest ?? NaN)}), serve ${f(x.serve)}, back ${f(x.back)}`,
  );
}
// The run of probes that led to the worst: lag accumulates while round trips pass the interval.
const w = worst[0]!;
let start = w.k;
while (start > 0 && rows[start - 1]!.scheduled > interval) start--;
const run = rows.slice(start, w.k + 1);
console.log(
  `the worst probe's run: ${run.length} probes from #${start}, round trips ${run.map((x) => f(x.rtt)).join(' ')}; to read ${run.map((x) => f(x.toRead)).join(' ')}`,
);
const span = inside(run[0]!.sent, w.answered);
console.log(
  `  over that run (${f(w.answered - run[0]!.sent)} ms): server cpu ${f(span.cpu)}, waiting for a CPU ${f(span.wait)}, idle ${f(span.idle)}, gc ${f(span.gc)}, longest gap ${f(span.longest)}`,
);
