/**
 * Outages per network: switched on now, or scheduled to start after N requests or at a time, for a
 * duration or until cleared; for every method or a list of methods.
 */
import { z } from 'zod';

export const OutageSpec = z
  .object({
    /** Only these methods fail; absent: every method. */
    methods: z.array(z.string().min(1)).min(1).optional(),
    /** Start after this many more requests to the network have been served. */
    afterRequests: z.number().int().min(0).optional(),
    /** Start at this time: milliseconds since the epoch, or an ISO 8601 date. */
    at: z.union([z.number().int().min(0), z.iso.datetime({ offset: true })]).optional(),
    /** End this many milliseconds after the start; absent: until cleared. */
    durationMs: z.number().int().positive().optional(),
  })
  .strict()
  .refine((s) => s.afterRequests === undefined || s.at === undefined, { message: 'give afterRequests or at, not both' });
export type OutageSpec = z.input<typeof OutageSpec>;
type ParsedOutageSpec = z.output<typeof OutageSpec>;

/** An outage as the admin interface and the start() handle report it. */
export interface OutageInfo {
  network: string;
  status: 'scheduled' | 'active';
  /** null: every method. */
  methods: string[] | null;
  /** Requests still to be served before it starts (scheduled by request count). */
  afterRequests?: number;
  /** When it starts or started, ms since the epoch (absent while waiting for a request count). */
  startsAt?: number;
  /** When it ends, ms since the epoch (absent: until cleared). */
  endsAt?: number;
  durationMs?: number;
}

interface Outage {
  methods: ReadonlySet<string> | null;
  remainingRequests?: number;
  startsAt?: number;
  durationMs?: number;
}

/** The outage a request meets: does it cover a method? */
export interface ActiveOutage {
  covers(method: string): boolean;
}

export class Outages {
  private readonly byNetwork = new Map<string, Outage>();

  /** Sets (replacing any) the outage of a network; `now` starts an unscheduled one. */
  set(network: string, s: ParsedOutageSpec, now: number): OutageInfo {
    const outage: Outage = {
      methods: s.methods === undefined ? null : new Set(s.methods),
      durationMs: s.durationMs,
    };
    if (s.afterRequests !== undefined && s.afterRequests > 0) outage.remainingRequests = s.afterRequests;
    else if (s.at !== undefined) outage.startsAt = typeof s.at === 'number' ? s.at : Date.parse(s.at);
    else outage.startsAt = now;
    this.byNetwork.set(network, outage);
    return this.info(network, outage, now);
  }

  clear(network: string): boolean {
    return this.byNetwork.delete(network);
  }

  /** Outages not yet over, scheduled or active. */
  list(now: number): OutageInfo[] {
    const out: OutageInfo[] = [];
    for (const [network, o] of this.byNetwork) {
      if (this.ended(network, o, now)) continue;
      out.push(this.info(network, o, now));
    }
    return out;
  }

  /**
   * Sees one request to a network: counts it towards an outage scheduled by request count, and
   * gives the outage it meets, if any.
   */
  observe(network: string, now: number): ActiveOutage | undefined {
    const o = this.byNetwork.get(network);
    if (o === undefined || this.ended(network, o, now)) return undefined;
    if (o.remainingRequests !== undefined) {
      if (o.remainingRequests > 0) {
        o.remainingRequests -= 1;
        return undefined;
      }
      o.remainingRequests = undefined;
      o.startsAt = now;
    }
    if (o.startsAt === undefined || now < o.startsAt) return undefined;
    const methods = o.methods;
    return { covers: (method) => methods === null || methods.has(method) };
  }

  private ended(network: string, o: Outage, now: number): boolean {
    if (o.startsAt === undefined || o.durationMs === undefined || now < o.startsAt + o.durationMs) return false;
    this.byNetwork.delete(network);
    return true;
  }

  private info(network: string, o: Outage, now: number): OutageInfo {
    const info: OutageInfo = {
      network,
      status: o.startsAt !== undefined && now >= o.startsAt && o.remainingRequests === undefined ? 'active' : 'scheduled',
      methods: o.methods === null ? null : [...o.methods],
    };
    if (o.remainingRequests !== undefined) info.afterRequests = o.remainingRequests;
    if (o.startsAt !== undefined) info.startsAt = o.startsAt;
    if (o.durationMs !== undefined) {
      info.durationMs = o.durationMs;
      if (o.startsAt !== undefined) info.endsAt = o.startsAt + o.durationMs;
    }
    return info;
  }
}
