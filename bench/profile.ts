/** Reads a V8 `.cpuprofile` (node --cpu-prof) and lists the functions and files with the most self time. */
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from './seed.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface Hotspot {
  name: string;
  /** Share of the busy (non-idle) samples, in percent. */
  selfPercent: number;
}

export interface ProfileSummary {
  busySamples: number;
  functions: Hotspot[];
  files: Hotspot[];
}

function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) return path.slice(nm + '/node_modules/'.length);
  return path.startsWith(REPO_ROOT) ? path.slice(REPO_ROOT.length + 1) : path || '(native)';
}

/** The monotonic clock in microseconds, the clock of a profile's sample times (Linux: CLOCK_MONOTONIC for both). */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * Self time per function and per file, as shares of the samples where the process was not idle;
 * with `window` (monotonicUs() times), only the samples taken in it (e.g. the load, not the startup).
 */
export function summarizeProfile(path: string, top = 15, window?: { fromUs: number; toUs: number }): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };
  const hitsOf = new Map<number, number>();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (!window || (t >= window.fromUs && t <= window.toUs)) hitsOf.set(id, (hitsOf.get(id) ?? 0) + 1);
  });
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = hitsOf.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || functionName === '(idle)') continue;
    busy += hits;
    const file = shortUrl(url);
    const name = `${functionName || '(anonymous)'} ${url ? `${file}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    const fileKey = url
      ? file.includes('/') && !file.startsWith('src/')
        ? file
            .split('/')
            .slice(0, file.startsWith('@') ? 2 : 1)
            .join('/')
        : file
      : functionName;
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + hits);
  }
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({ name, selfPercent: Math.round((hits / busy) * 1000) / 10 }));
  return { busySamples: busy, functions: rank(byFunction), files: rank(byFile) };
}
