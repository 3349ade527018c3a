/** The bench's results: their shape, the machine they were measured on, and the terminal and Markdown tables. */
import { cpus, platform, release, totalmem } from 'node:os';
import type { Measure } from './load.js';

export interface ServerFigure extends Partial<Measure> {
  /** `ok`, or why the figure was not timed: `n/a (method missing: ...)`, `n/a (error ...)`, `skipped (...)`. */
  status: string;
}

export interface FigureResult {
  id: string;
  label: string;
  devgate: ServerFigure;
  anvil: ServerFigure;
  /** devgate req/s divided by anvil req/s, where both were timed. */
  ratio?: number;
  /** The ratio issue 7 asks for. */
  target: number;
  /** Where the sampled answers of the two servers differ. */
  note?: string;
}

export interface StartupResult {
  what: string;
  firstMs?: number;
  secondMs?: number;
  status: string;
}

export interface BenchResults {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; os: string; node: string; anvil?: string; loadAverageAtStart: number[] };
  settings: { connections: number; durationSeconds: number; warmupSeconds: number };
  chain: { blocks: number; transactions: number; holders: number; seedKey: string };
  startup: StartupResult[];
  memory: { devgateAfterLoadMb?: number; devgateAfterRunMb?: number; anvilAfterReplayMb?: number; anvilAfterRunMb?: number };
  anvilReplayMs?: number;
  figures: FigureResult[];
}

/** The machine; `loadAverage` is os.loadavg() when the bench started (other work on the machine skews every figure). */
export function machine(loadAverage: number[], anvil?: string): BenchResults['machine'] {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    node: process.version,
    loadAverageAtStart: loadAverage.map((l) => Math.round(l * 100) / 100),
    ...(anvil ? { anvil } : {}),
  };
}

const num = (n: number | undefined, digits = 0) =>
  n === undefined ? '' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (n: number | undefined) => (n === undefined ? '' : n < 10 ? n.toFixed(2) : n.toFixed(1));

/** The status, short enough for a table cell: `n/a (method missing)`; the details are in the JSON and the notes. */
export function shortStatus(status: string): string {
  const m = /^(n\/a|skipped|failed) \(([^:()]+)/.exec(status);
  return m ? `${m[1]} (${m[2]!.trim()})` : status.slice(0, 40);
}

function cells(s: ServerFigure): string[] {
  if (s.status !== 'ok') return [shortStatus(s.status), '', ''];
  const failed = s.failures ? ` (${s.failures} failed)` : '';
  return [`${num(s.reqPerSec)}${failed}`, ms(s.p50), ms(s.p99)];
}

function rows(results: BenchResults): string[][] {
  return results.figures.map((f) => [
    f.label,
    ...cells(f.devgate),
    ...cells(f.anvil),
    f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}x`,
    `${f.target.toFixed(1)}x${f.ratio === undefined ? '' : f.ratio >= f.target ? ' met' : ' short'}`,
  ]);
}

const HEADER = ['figure', 'devgate req/s', 'p50 ms', 'p99 ms', 'anvil req/s', 'p50 ms', 'p99 ms', 'devgate/anvil', 'target'];

/** A plain-text table for the terminal. */
export function terminalTable(results: BenchResults): string {
  const all = [HEADER, ...rows(results)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(all[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

/** The figures, startup and memory as Markdown, for docs/bench-analysis.md ("Latest results"). */
export function markdown(results: BenchResults): string {
  const m = results.machine;
  const out = [
    `Measured ${results.date.slice(0, 10)} on ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}${m.anvil ? `, anvil ${m.anvil}` : ''}, load average ${m.loadAverageAtStart[0]} at the start; ` +
      `${results.settings.connections} connections, ${results.settings.durationSeconds} s per figure after ${results.settings.warmupSeconds} s of warm-up; ` +
      `chain of ${results.chain.blocks} blocks, ${results.chain.transactions} transactions, ${results.chain.holders} ERC-20 holders.`,
    '',
    `| ${HEADER.join(' | ')} |`,
    `| ${HEADER.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows(results).map((r) => `| ${r.join(' | ')} |`),
    '',
    "Issue 7's startup targets, with the 1,000-block seed: first start under 5 s, second start under 0.5 s, RSS after the load run under 300 MB.",
    '',
    '| startup (process start to first answer) | first start (empty cache) | second start |',
    '| --- | ---: | ---: |',
    ...results.startup.map(
      (s) => `| ${s.what} | ${s.status === 'ok' ? `${num(s.firstMs)} ms` : s.status} | ${s.secondMs === undefined ? '' : `${num(s.secondMs)} ms`} |`,
    ),
    '',
    `RSS of devgate: ${results.memory.devgateAfterLoadMb ?? '?'} MB after loading the seed, ${results.memory.devgateAfterRunMb ?? '?'} MB after the load run` +
      (results.memory.anvilAfterRunMb !== undefined
        ? `; anvil: ${results.memory.anvilAfterReplayMb} MB after the replay, ${results.memory.anvilAfterRunMb} MB after the load run.`
        : '.') +
      (results.anvilReplayMs !== undefined ? ` anvil took ${(results.anvilReplayMs / 1000).toFixed(1)} s to replay the chain over JSON-RPC.` : ''),
  ];
  const notes = results.figures.filter((f) => f.note);
  if (notes.length > 0) out.push('', ...notes.map((f) => `- ${f.label}: ${f.note}`));
  return out.join('\n');
}
