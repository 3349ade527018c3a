/**
 * Hands chain events to filters or subscribers in order, yielding to the event loop by work done: a block of 36,000
 * logs going to 1,000 filters, or 2,000 logs to 1,000 subscriptions of one connection, is millions of steps, and
 * other requests (of every network) must not wait for all of them.
 *
 * Events are queued and handled one at a time, in the order they came. A handler counts its work with `spend(n)`
 * (roughly bytes made or moved) and awaits what it returns: nothing while the slice lasts, so small events are
 * handled at once in the emitter's turn, as before; once a slice of work is used up, what the event loop's shared
 * slice answers (turnSlice.ts): nothing while its time lasts and nothing else waits, else a promise that resumes
 * behind the other chains of work, in this turn or after pending I/O. A large event (its pusher says so) is not started in the emitter's turn at all: the
 * emitter is the seal of a block, whose turn is long enough with thousands of logs (#25: the log index's first slice
 * and the first slice of notifications added ~10 ms to it). A handler that throws loses its event, never the process.
 */
import { nextTurn, sliceDone, slicePause } from '../turnSlice.js';

/** Work (about bytes of notifications or filter items) done before yielding to the event loop. */
export const FAN_OUT_SLICE = 64 * 1024;

/**
 * Work of looking at one log while matching a filter or subscription to a block, in the same units: a log looked at
 * and not taken costs about what 16 bytes of notification cost to make. Counted whether or not the log matches, so
 * filters that match nothing of a large block still yield (#25: 1,000 of them over a 36,000-log block were one turn).
 */
export const LOG_LOOK_WORK = 16;

/**
 * Blocks holding more logs than this (in all) make a large event: its fan-out starts after pending I/O rather than in
 * the seal's turn (the log index alone is built 2,000 logs a slice).
 */
export const IN_TURN_LOGS = 256;

/** Whether the logs of `blocks` are more than IN_TURN_LOGS. */
export function manyLogs(blocks: readonly { readonly receipts: readonly { readonly logs: readonly unknown[] }[] }[]): boolean {
  let n = 0;
  for (const b of blocks) for (const r of b.receipts) if ((n += r.logs.length) > IN_TURN_LOGS) return true;
  return false;
}

/** Work of looking at one filter or subscription for an event, whatever it takes from it. */
export const LOOK_WORK = 64;

/**
 * A count of work shared by many FanOuts (every connection's notifications): past a slice of it, the one that spent
 * last waits for the event loop's shared slice (turnSlice.ts), behind every other chain of work that waits, so 48
 * connections' fan-outs resumed in one turn do not each do a slice in it (48 × 64 KB of notifications).
 */
export class TurnBudget {
  private used = 0;

  constructor(private readonly slice = FAN_OUT_SLICE) {}

  spend(work: number): Promise<void> | undefined {
    this.used += work;
    if (this.used < this.slice) return undefined;
    this.used = 0;
    return slicePause();
  }
}

export class FanOut<E> {
  private readonly queue: E[] = [];
  private running = false;
  private closed = false;
  private used = 0;

  constructor(
    private readonly handle: (event: E) => Promise<void> | void,
    private readonly slice = FAN_OUT_SLICE,
    /** Shared with other FanOuts: one slice between them per turn. */
    private readonly shared?: TurnBudget,
  ) {}

  /**
   * Queues an event; handled at once when nothing is queued before it, or after pending I/O when it is `large` (more
   * than a slice of work is sure to follow: see IN_TURN_LOGS).
   */
  push(event: E, large = false): void {
    if (this.closed) return;
    this.queue.push(event);
    if (this.running) return;
    if (!large) void this.drain();
    else {
      this.running = true;
      void nextTurn().then(() => this.drain());
    }
  }

  /**
   * Counts work; when the slice is used up, what the event loop's shared slice answers: nothing while it lasts and no
   * other chain waits, else a promise to await (behind the others, in this turn or after pending I/O).
   */
  spend(work: number): Promise<void> | undefined {
    if (this.shared !== undefined) return this.shared.spend(work);
    this.used += work;
    if (this.used < this.slice) return undefined;
    this.used = 0;
    return slicePause();
  }

  /** The events not yet handled to the end (the first may be in progress). */
  get pending(): readonly E[] {
    return this.queue;
  }

  /** Drops what is queued; nothing more is handled. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (!this.closed && this.queue.length > 0) {
        try {
          const done = this.handle(this.queue[0]!);
          if (done !== undefined) await done;
        } catch {
          // A failing handler loses its event; the queue goes on.
        }
        this.queue.shift();
      }
    } finally {
      this.running = false;
      this.used = 0;
      sliceDone();
    }
  }
}
