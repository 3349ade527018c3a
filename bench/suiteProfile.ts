/**
 * Where devgate's CLI spends its CPU during one test-suite run (`npm run bench -- --only suite --suite-profile`):
 * reads the `node --cpu-prof` profile of its main thread and lists the functions with the most self time and the most
 * inclusive time (a function's own samples plus its callees', each sample counted once per function however deep the
 * recursion), over the suite's window only (not the startup). bench/results/suite-profile.md keeps whatever follows
 * the ANALYSIS marker across runs (the reading of the figures, written by hand).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './seed.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface ProfileTables {
  busySamples: number;
  windowMs: number;
  self: { name: string; percent: number }[];
  inclusive: { name: string; percent: number }[];
}

export const ANALYSIS_MARKER = '<!-- analysis: kept across runs -->';

function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) return path.slice(nm + '/node_modules/'.length);
  return path.startsWith(REPO_ROOT) ? path.slice(REPO_ROOT.length + 1) : path;
}

/** Self and inclusive time per function over the samples in `window` (monotonic µs), as shares of the busy samples. */
export function profileTables(path: string, window?: { fromUs: number; toUs: number }, top = 25): ProfileTables {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: ProfileNode[];
    startTime: number;
    endTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) => {
    const { functionName, url, lineNumber } = n.callFrame;
    return `${functionName || '(anonymous)'}${url ? ` ${shortUrl(url)}:${lineNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (window && (t < window.fromUs || t > window.toUs)) return;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === '(idle)') return;
    busy++;
    self.set(key(leaf), (self.get(key(leaf)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let n: ProfileNode | undefined = leaf; n; n = byId.get(parent.get(n.id) ?? -1)) {
      const k = key(n);
      if (k === '(root)' || seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + 1);
    }
  });
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({ name, percent: Math.round((hits / Math.max(1, busy)) * 1000) / 10 }));
  const windowMs = window ? (window.toUs - window.fromUs) / 1000 : (profile.endTime - profile.startTime) / 1000;
  return { busySamples: busy, windowMs, self: rank(self), inclusive: rank(inclusive) };
}

/** The main thread's profile in `dir`: the largest `.cpuprofile` (the tsx loader's and workers' are small). */
export function mainProfile(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

/** bench/results/suite-profile.md: the tables of this run, then the kept analysis of the previous file, if any. */
export function suiteProfileMarkdown(dir: string, window?: { fromUs: number; toUs: number }, previous?: string): string {
  const file = mainProfile(dir);
  if (!file) return `No CPU profile was written to ${dir}.`;
  const p = profileTables(file, window);
  const row = (x: { name: string; percent: number }) => `| ${x.percent.toFixed(1)}% | \`${x.name.replace(/\|/g, '/')}\` |`;
  const kept = previous && existsSync(previous) ? readFileSync(previous, 'utf8').split(ANALYSIS_MARKER)[1] : undefined;
  return [
    `# Where devgate's CLI spends its CPU during the test-suite bench (${new Date().toISOString()})`,
    '',
    `\`npm run bench -- --only suite --suite-profile\`: one more suite run against \`node --cpu-prof bin/devgate.js\`; ` +
      `${p.busySamples} busy samples over the suite's ${(p.windowMs / 1000).toFixed(1)} s (the startup left out). Shares are of the busy samples.`,
    '',
    '## Self time',
    '',
    '| self | function |',
    '| ---: | --- |',
    ...p.self.map(row),
    '',
    '## Inclusive time (the function and what it calls)',
    '',
    '| inclusive | function |',
    '| ---: | --- |',
    ...p.inclusive.map(row),
    '',
    ANALYSIS_MARKER,
    kept?.trim() ? `\n${kept.trim()}` : '',
  ].join('\n');
}
