/** Time as devgate sees it: the system clock, or a manual one that tests drive. */

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; its timers (setClockTimer) fire as it passes their time, in order. */
export class ManualClock implements Clock {
  private timers: { due: number; seq: number; fn: () => void }[] = [];
  private seq = 0;
  /** While a timer runs: the time it was due (a timer it schedules counts from there, as on a real clock). */
  private firingAt: number | undefined;

  constructor(private ms = 0) {}

  now(): number {
    return this.ms;
  }

  set(ms: number): void {
    this.ms = ms;
    this.fire();
  }

  advance(ms: number): void {
    this.set(this.ms + ms);
  }

  /** Runs `fn` once the clock reaches now + `ms`; gives a function that cancels it. */
  schedule(ms: number, fn: () => void): () => void {
    const timer = { due: (this.firingAt ?? this.ms) + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  private fire(): void {
    for (;;) {
      const due = this.timers.filter((t) => t.due <= this.ms).sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (due === undefined) return;
      this.timers = this.timers.filter((t) => t !== due);
      this.firingAt = due.due;
      try {
        due.fn();
      } finally {
        this.firingAt = undefined;
      }
    }
  }
}

/** Runs `fn` after `ms` milliseconds of `clock`'s time; gives a function that cancels it. */
export function setClockTimer(clock: Clock, ms: number, fn: () => void): () => void {
  if (clock instanceof ManualClock) return clock.schedule(ms, fn);
  const t = setTimeout(fn, ms);
  t.unref?.();
  return () => clearTimeout(t);
}
