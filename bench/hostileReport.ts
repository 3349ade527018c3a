/**
 * The hostile table's figures (bench/hostile.ts): the probe's latency summary, the met/short verdicts against issue 25's
 * targets, and the terminal and Markdown tables. Pure: no processes, no sockets (test/bench/hostileReport.test.ts).
 */

/** Issue 25's targets for every attack: another network's eth_blockNumber p99 and the server's peak RSS. */
export const TARGET_P99_MS = 100;
export const TARGET_RSS_MB = 1024;

/** What the probe saw while an attack ran (latencies from each probe's scheduled send time, so a stall counts in full). */
export interface ProbeSummary {
  /** Probes timed (answered or not). */
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Probes answered with an error, a non-200 status or a failed connection. */
  errors: number;
  firstError?: string;
}

/** One attack on one server. */
export interface HostileSide {
  /** `ok` when the attack ran; `skipped (...)` or `n/a (...)` when it did not. */
  status: string;
  probe?: ProbeSummary;
  rssBeforeMb?: number;
  /** The server's peak resident set (VmHWM of /proc/<pid>/status, or the highest VmRSS sampled). */
  peakRssMb?: number;
  /** From the attack's first request to its last answer (or to the crash, freeze or kill). */
  attackMs?: number;
  /** `completed: ...`, `refused: <code> <message>`, `crashed: ...`, `froze: ...`, `killed: ...`. */
  outcome?: string;
  /**
   * CPU time (user + system, ms) during the attack: the server's (/proc/<pid>/stat) and the bench's own process (the
   * attacker's clients and the probe's worker), which share the machine's cores with the server.
   */
  cpuMs?: { server: number; bench: number };
}

export interface HostileResult {
  id: string;
  label: string;
  devgate: HostileSide;
  anvil: HostileSide;
}

export interface HostileResults {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; node: string; anvil?: string; loadAverageAtStart: number[]; loadAverageAtEnd?: number[] };
  settings: { probeIntervalMs: number; freezeSeconds: number; attackSeconds: number; rssCeilingMb: number; scale: number };
  attacks: HostileResult[];
}

/** The p-th percentile (nearest rank) of ascending `sorted`; 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** The probe's summary from its raw latencies (ms, any order) and error messages. */
export function summarizeProbe(latencies: readonly number[], errors: readonly string[]): ProbeSummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    count: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? 0),
    errors: errors.length,
    ...(errors.length > 0 ? { firstError: errors[0]!.slice(0, 200) } : {}),
  };
}

/**
 * The probe latencies of one sequential probe loop, corrected for coordinated omission: probe k is due at
 * `k * intervalMs`; it is sent when due or when the one before it was answered, whichever is later, and its latency
 * runs from when it was due. `answers` are the times (ms from the start) each sent probe was answered, in order;
 * probes still due at `endMs` after the last answer (an unanswered one included) count `endMs - due`, a lower bound.
 */
export function scheduledLatencies(answers: readonly number[], intervalMs: number, endMs: number): number[] {
  const out: number[] = [];
  let k = 0;
  for (const at of answers) out.push(at - k++ * intervalMs);
  for (; k * intervalMs <= endMs; k++) out.push(endMs - k * intervalMs);
  return out;
}

const met = (ok: boolean) => (ok ? 'met' : 'short');

/** `met` or `short` against the p99 target; empty where nothing was probed. */
export function probeVerdict(side: HostileSide): string {
  if (!side.probe) return '';
  return met(side.probe.p99Ms < TARGET_P99_MS && side.probe.errors === 0);
}

export function rssVerdict(side: HostileSide): string {
  return side.peakRssMb === undefined ? '' : met(side.peakRssMb < TARGET_RSS_MB);
}

const num = (n: number | undefined, digits = 0) =>
  n === undefined ? '' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const seconds = (ms: number | undefined) => (ms === undefined ? '' : `${(ms / 1000).toFixed(1)} s`);

/** A table cell's text: no pipes or line breaks, at most `max` characters. */
export function cell(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').replace(/\|/g, '/').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function sideCells(side: HostileSide): string[] {
  if (side.status !== 'ok') return [cell(side.status, 60), '', '', '', ''];
  const p = side.probe;
  const probe = p ? `${num(p.p50Ms, 1)} / ${num(p.p99Ms, 1)} / ${num(p.maxMs, 1)}${p.errors ? ` (${num(p.errors)} errors)` : ''}` : '';
  const rss = side.peakRssMb === undefined ? '' : `${num(side.rssBeforeMb)} → ${num(side.peakRssMb)}`;
  return [probe, probeVerdict(side), rss, rssVerdict(side), `${seconds(side.attackMs)}: ${cell(side.outcome ?? '')}`];
}

/** The Markdown table (and its heading lines) of bench/results/hostile.md. */
export function hostileMarkdown(r: HostileResults): string {
  const m = r.machine;
  const load = (l: number[] | undefined) => (l ? l.map((x) => x.toFixed(2)).join(', ') : '?');
  const lines = [
    '### Hostile table (issue 25)',
    '',
    `Measured ${r.date.slice(0, 10)} on ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}${m.anvil ? `, anvil ${m.anvil}` : ''}; ` +
      `load average ${load(m.loadAverageAtStart)} at the start, ${load(m.loadAverageAtEnd)} at the end. ` +
      `Probe: eth_blockNumber every ${r.settings.probeIntervalMs} ms on one keep-alive connection from a worker thread ` +
      '(devgate: on sepolia while mainnet is attacked; anvil: on the same anvil), latency from when each probe was due. ' +
      `A server that leaves a probe unanswered for ${r.settings.freezeSeconds} s is killed (\`froze\`), one past ${num(r.settings.rssCeilingMb)} MB ` +
      `RSS too (\`killed\`), one still under attack after ${r.settings.attackSeconds} s too (\`timed out\`). Targets: probe p99 < ${TARGET_P99_MS} ms, peak RSS < ${num(TARGET_RSS_MB)} MB.` +
      (r.settings.scale === 1 ? '' : ` Attacks scaled by ${r.settings.scale}.`),
    '',
    '| attack | server | probe p50 / p99 / max ms | p99 | RSS before → peak MB | RSS | attack: outcome |',
    '| --- | --- | ---: | --- | ---: | --- | --- |',
  ];
  for (const a of r.attacks) {
    lines.push(`| ${cell(a.label, 90)} | devgate | ${sideCells(a.devgate).join(' | ')} |`);
    lines.push(`|  | anvil | ${sideCells(a.anvil).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** A compact table for the terminal. */
export function hostileTerminal(r: HostileResults): string {
  const rows = [['attack', 'server', 'p50/p99/max ms', 'p99', 'RSS MB', 'RSS', 'outcome']];
  for (const a of r.attacks)
    for (const [name, side] of [
      ['devgate', a.devgate],
      ['anvil', a.anvil],
    ] as const) {
      const c = sideCells(side);
      rows.push([name === 'devgate' ? a.id : '', name, c[0]!, c[1]!, c[2]!, c[3]!, cell(c[4]!, 70)]);
    }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
}
