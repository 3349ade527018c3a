/**
 * One slice of work per turn of the event loop, shared by every chain of work that yields (#25): a connection's
 * WebSocket messages, the notifications of every connection, the send queues, log filters, a block's log index, the
 * seal's stages and the logs-ahead hashing. Each of them used to yield on its own (setImmediate), so one check phase
 * ran a piece of each of them (the seal's stage, a slice of notifications, a 1,000-log index slice, 1,000 messages'
 * answers...) before the poll phase read the next request: every network waited for their sum. Here they take turns
 * in one queue, in the order they asked, as many per turn as fit in TURN_SLICE_MS of wall time; past it the rest wait
 * for the next turn, after pending I/O. Work done is the time used, whatever it was.
 *
 *  - `slicePause()` where a chain may go on: undefined while the turn's slice lasts and no other chain waits (go on at
 *    once, in the same turn, as before for small work); else a promise: the chains waiting before it go first, in
 *    this turn while the slice lasts, else in the next.
 *  - `nextTurn()` where a chain must let pending I/O in (between the seal's stages): always a later turn.
 *  - `sliceDone()` where a chain ends: the next waiting chain goes on while the slice lasts (a chain that ends without
 *    pausing again would otherwise leave the others to the next turn, one a turn: 48 connections' fan-outs of
 *    newHeads fell behind the miner so).
 *
 * Nothing here changes what is computed, only when: each chain keeps its own order.
 */

/** Wall time (ms) the chains sharing the slice may use in one turn of the event loop before the rest waits. */
export const TURN_SLICE_MS = 3;

/** A chain waiting for its turn; `after`: it must not go on before a turn numbered above it (nextTurn). */
interface Waiter {
  readonly resolve: () => void;
  readonly after: number;
}

const waiting: Waiter[] = [];
/** The turns started so far. */
let turn = 0;
/** When the current slice started (performance.now()). */
let sliceStart = Number.NEGATIVE_INFINITY;
/** A turn is scheduled (setImmediate): the slice is the current turn's until it starts a new one. */
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(startTurn);
}

/** A new turn: a fresh slice, the longest-waiting chain goes on (and passes the turn on when it pauses). */
function startTurn(): void {
  scheduled = false;
  turn++;
  sliceStart = performance.now();
  const first = waiting.shift();
  // Whoever is left is resumed by the chains that go on, while the slice lasts, or by the next turn.
  if (waiting.length > 0) schedule();
  first?.resolve();
}

/** Whether the current slice still has time (a slice that ended with nothing waiting and no turn scheduled is renewed). */
function sliceLeft(now: number): boolean {
  if (now - sliceStart < TURN_SLICE_MS) return true;
  if (scheduled || waiting.length > 0) return false;
  // Idle since the last slice ended: the work of this callback (an I/O event) starts a slice of its own, which ends
  // with this turn (a chain that goes on past it waits for the next).
  sliceStart = now;
  schedule();
  return true;
}

/** The slice lasts: the longest-waiting chain goes on now, unless it waits for a later turn (it passes the turn on). */
function passOn(): void {
  if (waiting.length > 0 && waiting[0]!.after < turn) waiting.shift()!.resolve();
}

/**
 * Where a chain may go on: undefined while the slice lasts and nothing else waits; else a promise that resolves when
 * the chains that waited before this one have had their turn (this turn while the slice lasts, else the next).
 */
export function slicePause(): Promise<void> | undefined {
  const left = sliceLeft(performance.now());
  if (left && waiting.length === 0) return undefined;
  return new Promise<void>((resolve) => {
    waiting.push({ resolve, after: -1 });
    schedule();
    if (left) passOn();
  });
}

/** A chain ended: while the slice lasts, the longest-waiting chain goes on now rather than in the next turn. */
export function sliceDone(): void {
  if (waiting.length > 0 && performance.now() - sliceStart < TURN_SLICE_MS) passOn();
}

/** A later turn of the event loop, after pending I/O (and after the chains that waited before this one). */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    if (performance.now() - sliceStart < TURN_SLICE_MS) passOn();
    waiting.push({ resolve, after: turn });
    schedule();
  });
}
