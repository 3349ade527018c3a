/**
 * The event loop's shared slice (src/turnSlice.ts, issue 25): chains of work that yield take turns in one queue, as
 * many per turn as fit in TURN_SLICE_MS, instead of each doing a piece in every turn.
 */
import { expect, it } from 'vitest';
import { nextTurn, sliceDone, slicePause, TURN_SLICE_MS } from '../src/turnSlice.js';
import { countTurns } from './support/turns.js';

/** Busy for `ms` of wall time. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

it('chains that pause share one slice per turn, in turn', async () => {
  const pieces: number[][] = [[]];
  let counting = true;
  const count = () => {
    if (!counting) return;
    pieces.push([]);
    setImmediate(count);
  };
  setImmediate(count);
  const chain = async (id: number) => {
    for (let i = 0; i < 20; i++) {
      spin(TURN_SLICE_MS / 4);
      pieces.at(-1)!.push(id);
      const pause = slicePause();
      if (pause !== undefined) await pause;
    }
  };
  await Promise.all([chain(1), chain(2), chain(3), chain(4)]);
  counting = false;
  const busy = pieces.filter((p) => p.length > 0);
  // Four chains of 20 pieces of a quarter slice: about 4 pieces a slice (one over when a piece ends past it; a
  // counted turn may hold the end of one slice and the start of the next), and every piece done.
  expect(Math.max(...busy.map((p) => p.length))).toBeLessThanOrEqual(10);
  expect(busy.length).toBeGreaterThanOrEqual(8);
  expect(busy.flat().filter((id) => id === 1)).toHaveLength(20);
});

it('nextTurn always lets a turn of the event loop pass', async () => {
  let turns = 0;
  const tick = setInterval(() => {}, 1000);
  const immediate = () => turns++;
  for (let i = 0; i < 5; i++) {
    const before = turns;
    setImmediate(immediate);
    await nextTurn();
    expect(turns).toBeGreaterThan(before);
  }
  clearInterval(tick);
});

it('a chain that ends passes the turn on: 48 short chains go on in one turn, not one a turn', async () => {
  const counter = countTurns();
  const resumedAt: number[] = [];
  // A chain waiting for the next turn first: the 48 queue behind it.
  const first = nextTurn().then(sliceDone);
  await Promise.all(
    Array.from({ length: 48 }, async () => {
      const pause = slicePause();
      if (pause !== undefined) await pause;
      resumedAt.push(counter.turns);
      sliceDone();
    }),
  );
  await first;
  counter.stop();
  // Each chain is a few microseconds: they all fit in one or two slices (before, one chain a turn: 48 turns).
  expect(new Set(resumedAt).size).toBeLessThanOrEqual(3);
});
