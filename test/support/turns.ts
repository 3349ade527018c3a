/**
 * How the event loop turned while some work ran: the gaps between 1 ms timer ticks. Tests of "this work yields"
 * assert on these with `expectYielded`, which holds on a shared, loaded machine (CI runs two test files at once):
 * a descheduled process or a GC pause can stretch any one gap, so the check is relative to the whole run and
 * counts turns, while work that never yields still fails it (one gap as long as the whole run, and no turns).
 */
import { expect } from 'vitest';

export interface Turns {
  /** Every gap between timer ticks, in ms, in order. */
  gaps: number[];
  /** The longest gap (ms). */
  worst: number;
  /** How long the work ran (ms). */
  took: number;
}

export async function watchTurns(work: Promise<unknown>): Promise<Turns> {
  const t0 = performance.now();
  let last = t0;
  const gaps: number[] = [];
  let done = false;
  const settled = work.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await new Promise((r) => setTimeout(r, 1));
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }
  await settled;
  return { gaps, worst: Math.max(0, ...gaps), took: performance.now() - t0 };
}

/**
 * The work let the loop turn at least `minTurns` times and no one turn held it for more than a third of the run
 * (or `floorMs`, when the run is short). Without yields the run is one turn as long as the run itself.
 */
export function expectYielded(t: Turns, minTurns = 8, floorMs = 50): void {
  expect(t.gaps.length, `turns while the work ran (took ${t.took.toFixed(0)} ms)`).toBeGreaterThanOrEqual(minTurns);
  expect(t.worst, `the longest turn, of ${t.took.toFixed(0)} ms in all`).toBeLessThan(Math.max(floorMs, t.took / 3));
}

/** The q-quantile (0..1) of some durations. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
}

/**
 * Runs `work` and counts the event loop's turns meanwhile with setImmediate, no clock read: a count that holds
 * however loaded the machine is (work done in one piece gets a turn or two around its awaits).
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  const counter = countTurns();
  try {
    return { value: await work(), turns: counter.turns };
  } finally {
    counter.stop();
  }
}

/** Counts the event loop's turns from now (setImmediate, no clock read), readable while it runs, until stop(). */
export function countTurns(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let counting = true;
  const count = () => {
    if (!counting) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  return {
    get turns() {
      return turns;
    },
    stop: () => {
      counting = false;
    },
  };
}
