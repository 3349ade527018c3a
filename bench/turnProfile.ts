/**
 * Where the longest event-loop turns of a hostile bench went: for each turn, the CPU profile's samples inside it,
 * by function (self and inclusive). Used by bench/hostileTurns.ts,
 * bench/hostileSlowTurns.ts and bench/hostileFanTurns.ts.
 */
import type { Profiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';

export interface Turn {
  /** When the turn started (process.hrtime.bigint(), ns). */
  readonly at: bigint;
  /** Its wall time (ms). */
  readonly ms: number;
  /** What the bench was doing. */
  readonly stage: string;
}

/** A V8 CPU profile of this process started now, sampled every 100 us (the turns benches' `--prof`); stop with Profiler.stop. */
export async function startTurnProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return session;
}

export function printTurnProfiles(profile: Profiler.Profile, top: readonly Turn[]): void {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number) => {
    const f = nodes.get(id)!.callFrame;
    return `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  };
  let t = profile.startTime;
  const samples = profile.samples!.map((id, i) => ({ id, at: (t += profile.timeDeltas![i]!) }));
  for (const g of top) {
    const from = Number(g.at / 1000n);
    const to = from + g.ms * 1000;
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    for (const s of samples) {
      if (s.at < from || s.at > to) continue;
      self.set(name(s.id), (self.get(name(s.id)) ?? 0) + 0.1);
      const seen = new Set<string>();
      for (let id: number | undefined = s.id; id !== undefined; id = parent.get(id)) {
        const n = name(id);
        if (seen.has(n)) continue;
        seen.add(n);
        total.set(n, (total.get(n) ?? 0) + 0.1);
      }
    }
    const busy = [...self].filter(([n]) => !n.startsWith('(idle)') && !n.startsWith('(program)')).reduce((a, [, ms]) => a + ms, 0);
    console.log(`\ngap ${g.ms.toFixed(1)} ms (${g.stage}), ${busy.toFixed(1)} ms sampled busy: self`);
    for (const [n, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${n}`);
    console.log('  total (inclusive):');
    for (const [n, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${n}`);
  }
}
