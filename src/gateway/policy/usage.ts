/** Usage per key: requests and credits per method, today (00:00 UTC of devgate's clock) and in total. */

const DAY_MS = 86_400_000;

/** The UTC day a clock reading falls in, as days since the epoch. */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** Why a request was refused; refused requests cost nothing but are counted. */
export type Rejection = 'auth' | 'allowlist' | 'rate' | 'daily' | 'outage';

export interface Tally {
  requests: number;
  credits: number;
}

export interface UsagePeriod extends Tally {
  methods: Record<string, Tally>;
}

/** Why the gateway closed one of a key's WebSocket connections itself. */
export type Closure = 'slowReader';

/**
 * Connections of a key the gateway closed (a slow reader: past its unsent-byte budget), in all and by the method of
 * the last frame the connection was sent before (a notification's method, e.g. eth_subscription, or the method of
 * the request answered); `unknown` when the frame named none.
 */
export interface ClosureReport {
  slowReader: number;
  methods: Record<string, number>;
}

/** What `getUsage` reports for one key. */
export interface KeyUsageReport {
  key: string;
  /** The UTC day `today` covers, `YYYY-MM-DD`. */
  day: string;
  today: UsagePeriod;
  total: UsagePeriod;
  rejected: Record<Rejection, number>;
  closed: ClosureReport;
}

/** A period as kept: per-method tallies in a Map, since method names are the client's strings. */
interface Period extends Tally {
  methods: Map<string, Tally>;
}

function period(): Period {
  return { requests: 0, credits: 0, methods: new Map() };
}

function add(p: Period, method: string, credits: number): void {
  p.requests += 1;
  p.credits += credits;
  let m = p.methods.get(method);
  if (m === undefined) p.methods.set(method, (m = { requests: 0, credits: 0 }));
  m.requests += 1;
  m.credits += credits;
}

/** The report's copy; Object.fromEntries defines own properties, so `__proto__` stays a plain key. */
function copy(p: Period): UsagePeriod {
  return { requests: p.requests, credits: p.credits, methods: Object.fromEntries([...p.methods].map(([k, v]) => [k, { ...v }])) };
}

class KeyUsage {
  day: number;
  today = period();
  total = period();
  rejected: Record<Rejection, number> = { auth: 0, allowlist: 0, rate: 0, daily: 0, outage: 0 };
  closed = { slowReader: 0, methods: new Map<string, number>() };

  constructor(now: number) {
    this.day = dayOf(now);
  }

  /** Starts a new day's tally when the clock has passed 00:00 UTC. */
  roll(now: number): this {
    const day = dayOf(now);
    if (day !== this.day) {
      this.day = day;
      this.today = period();
    }
    return this;
  }
}

export class UsageBook {
  private readonly byKey = new Map<string, KeyUsage>();

  private entry(key: string, now: number): KeyUsage {
    let u = this.byKey.get(key);
    if (u === undefined) this.byKey.set(key, (u = new KeyUsage(now)));
    return u.roll(now);
  }

  /** Credits the key spent today. */
  creditsToday(key: string, now: number): number {
    return this.byKey.get(key)?.roll(now).today.credits ?? 0;
  }

  /** Records the calls of one served request. */
  charge(key: string, now: number, calls: readonly { method: string; credits: number }[]): void {
    const u = this.entry(key, now);
    for (const c of calls) {
      add(u.today, c.method, c.credits);
      add(u.total, c.method, c.credits);
    }
  }

  reject(key: string, now: number, why: Rejection): void {
    this.entry(key, now).rejected[why] += 1;
  }

  /** Records a connection of the key the gateway closed, with the method of the last frame it was sent, if known. */
  close(key: string, now: number, why: Closure, method = 'unknown'): void {
    const closed = this.entry(key, now).closed;
    closed[why] += 1;
    closed.methods.set(method, (closed.methods.get(method) ?? 0) + 1);
  }

  report(key: string, now: number): KeyUsageReport {
    const u = this.byKey.get(key)?.roll(now) ?? new KeyUsage(now);
    return {
      key,
      day: new Date(u.day * DAY_MS).toISOString().slice(0, 10),
      today: copy(u.today),
      total: copy(u.total),
      rejected: { ...u.rejected },
      closed: { slowReader: u.closed.slowReader, methods: Object.fromEntries(u.closed.methods) },
    };
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  /** Forgets the usage of one key, or of every key. */
  reset(key?: string): void {
    if (key === undefined) this.byKey.clear();
    else this.byKey.delete(key);
  }
}
