/** The per-second credit limit: a sliding one-second window of the credits each key spent. */

const WINDOW_MS = 1000;

export type RateCheck = { readonly ok: true } | { readonly ok: false; readonly allowed: number; readonly current: number; readonly backoffSeconds: number };

/** One key's spending in the last second. */
export class RateWindow {
  private readonly spent: { at: number; credits: number }[] = [];
  private sum = 0;
  /** Index of the oldest entry still in the window. */
  private head = 0;

  /** Credits spent in the second up to `now`. */
  used(now: number): number {
    while (this.head < this.spent.length && this.spent[this.head]!.at <= now - WINDOW_MS) this.sum -= this.spent[this.head++]!.credits;
    if (this.head === this.spent.length) {
      this.spent.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.spent.length) {
      this.spent.splice(0, this.head);
      this.head = 0;
    }
    return this.sum;
  }

  /** Whether `cost` more credits fit under `limit` per second now; when not, how long to back off. */
  check(now: number, cost: number, limit: number): RateCheck {
    const used = this.used(now);
    if (used + cost <= limit) return { ok: true };
    let freed = 0;
    let backoffMs = WINDOW_MS;
    for (let i = this.head; i < this.spent.length; i++) {
      const s = this.spent[i]!;
      freed += s.credits;
      if (used - freed + cost <= limit) {
        backoffMs = s.at + WINDOW_MS - now;
        break;
      }
    }
    return { ok: false, allowed: limit, current: used + cost, backoffSeconds: backoffMs / 1000 };
  }

  add(now: number, credits: number): void {
    this.spent.push({ at: now, credits });
    this.sum += credits;
  }
}
