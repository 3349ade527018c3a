/**
 * The gateway's policy for one request, in order: key and secret, allowlists, outage (and partner
 * forwarding), daily quota, per-second rate; then the request is charged. Refused requests cost nothing.
 */
import type { Clock } from '../../clock.js';
import { callAllowed, headersAllowed, type PolicyCall, type RequestHeaders } from './allowlist.js';
import { creditsOf } from './credits.js';
import { webPageReason, type PageHeaders } from './webPage.js';
import { factsOf, type MethodLookup } from '../../rpc/method.js';
import { KeyStore, type KeysConfig, type ResolvedKey } from './keys.js';
import { Outages } from './outage.js';
import { FORWARDING_PLANS } from './plans.js';
import { RateWindow } from './ratelimit.js';
import { secretMatches } from './secret.js';
import { UsageBook } from './usage.js';

/** Methods a partner provider answers during an outage, for keys on eligible plans. */
export const FORWARDED_METHODS: ReadonlySet<string> = new Set(['eth_getBlockByHash', 'eth_getTransactionReceipt']);

/** Who sends a request: the key, whether it carried the key's secret, and whether it asked for failover. */
export interface Caller {
  readonly key: ResolvedKey;
  readonly secretGiven: boolean;
  readonly failover: boolean;
  /**
   * Why the request must not reach dev methods, when it comes from a web page (webPage.ts: a foreign Origin or
   * Host); undefined for other clients.
   */
  readonly page?: string;
}

export type AuthResult =
  | { readonly ok: true; readonly key: ResolvedKey; readonly secretGiven: boolean }
  | { readonly ok: false; readonly reason: 'unknown-key' | 'bad-secret' };

export type Refusal =
  | { readonly kind: 'allowlist' }
  | { readonly kind: 'outage' }
  | { readonly kind: 'daily' }
  | { readonly kind: 'rate'; readonly allowed: number; readonly current: number; readonly backoffSeconds: number };

export type Admission = { readonly ok: true; readonly forwarded: boolean; readonly credits: number } | { readonly ok: false; readonly refusal: Refusal };

/** The password of an HTTP Basic `Authorization` header (`curl --user :SECRET`), if any. */
export function basicPassword(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (m === null) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/**
 * Unlisted keys (accepted because the store is open) whose usage and rate window are kept; past this, the least
 * recently seen one is forgotten, so a client making up a key per request cannot grow the process.
 */
export const MAX_UNLISTED_KEYS = 10_000;

export class Policy {
  readonly keys: KeyStore;
  readonly usage = new UsageBook();
  readonly outages = new Outages();
  private readonly windows = new Map<string, RateWindow>();
  /** Unlisted keys with usage or a window, least recently seen first. */
  private readonly unlistedSeen = new Set<string>();

  constructor(
    config: KeysConfig,
    private readonly clock: Clock,
    /** Told when a key is refused for its daily quota (its WebSocket connections are closed). */
    private readonly onQuotaExhausted: (key: string) => void = () => {},
  ) {
    this.keys = new KeyStore(config);
  }

  /** The host the gateway listens on (`--host`): a `Host` header naming it is no DNS rebinding. */
  listenHost: string | undefined;

  /** Why a request with these headers must not reach dev methods (a web page's), or undefined. */
  pageOf(headers: PageHeaders): string | undefined {
    return webPageReason(headers, this.listenHost);
  }

  now(): number {
    return this.clock.now();
  }

  /** Notes a use of an unlisted key, forgetting the least recently seen one past MAX_UNLISTED_KEYS. */
  private seen(key: ResolvedKey): void {
    if (key.listed) return;
    const name = key.key;
    if (this.unlistedSeen.delete(name)) return void this.unlistedSeen.add(name);
    this.unlistedSeen.add(name);
    if (this.unlistedSeen.size <= MAX_UNLISTED_KEYS) return;
    const oldest = this.unlistedSeen.values().next().value as string;
    this.unlistedSeen.delete(oldest);
    if (this.keys.isListed(oldest)) return;
    this.usage.reset(oldest);
    this.windows.delete(oldest);
  }

  /** How many keys have usage kept, and how many rate windows (for tests of the bound). */
  tracked(): { usage: number; windows: number } {
    return { usage: this.usage.keys().length, windows: this.windows.size };
  }

  /** Looks the key up and checks its secret (HTTP Basic, empty user name). */
  authenticate(keyName: string, authorization: string | undefined): AuthResult {
    const key = this.keys.lookup(keyName);
    if (key === undefined) return { ok: false, reason: 'unknown-key' };
    const password = basicPassword(authorization);
    const secretGiven = key.secret !== undefined && password !== undefined && secretMatches(password, key.secret);
    if ((key.secret !== undefined && password !== undefined && !secretGiven) || (key.requireSecret && !secretGiven)) {
      this.seen(key);
      this.usage.reject(key.key, this.now(), 'auth');
      return { ok: false, reason: 'bad-secret' };
    }
    return { ok: true, key, secretGiven };
  }

  /** Origin and user-agent allowlists; a request with the key's secret skips allowlists. */
  headersAllowed(caller: Omit<Caller, 'failover'>, headers: RequestHeaders): boolean {
    if (caller.secretGiven || headersAllowed(caller.key.allowlist, headers)) return true;
    this.seen(caller.key);
    this.usage.reject(caller.key.key, this.now(), 'allowlist');
    return false;
  }

  /** Whether the key has no credits left today (new WebSocket connections are refused). */
  overDailyQuota(key: ResolvedKey): boolean {
    const limit = key.limits.creditsPerDay;
    return limit !== null && this.usage.creditsToday(key.key, this.now()) >= limit;
  }

  /** Decides on one request (all its calls) to a network (`methods`: its table, whose facts the allowlists read), and charges it when admitted. */
  admit(caller: Caller, network: string, calls: readonly PolicyCall[], methods: MethodLookup): Admission {
    const now = this.now();
    const { key } = caller;
    this.seen(key);
    const refuse = (refusal: Refusal): Admission => {
      this.usage.reject(key.key, now, refusal.kind);
      if (refusal.kind === 'daily') this.onQuotaExhausted(key.key);
      return { ok: false, refusal };
    };
    if (!caller.secretGiven && !calls.every((c) => callAllowed(key.allowlist, c, factsOf(methods, c.method)))) return refuse({ kind: 'allowlist' });

    let forwarded = false;
    const outage = this.outages.observe(network, now);
    const hit = outage === undefined ? [] : calls.filter((c) => outage.covers(c.method));
    if (hit.length > 0) {
      const forwardable = caller.failover && FORWARDING_PLANS.has(key.plan) && hit.every((c) => FORWARDED_METHODS.has(c.method));
      if (!forwardable) return refuse({ kind: 'outage' });
      forwarded = true;
    }

    const priced = calls.map((c) => ({ method: c.method, credits: creditsOf(c.method) }));
    const credits = priced.reduce((sum, c) => sum + c.credits, 0);
    const perDay = key.limits.creditsPerDay;
    if (perDay !== null && this.usage.creditsToday(key.key, now) + credits > perDay) return refuse({ kind: 'daily' });
    const perSecond = key.limits.creditsPerSecond;
    let window: RateWindow | undefined;
    if (perSecond !== null) {
      window = this.windows.get(key.key) ?? new RateWindow();
      this.windows.set(key.key, window);
      const rate = window.check(now, credits, perSecond);
      if (!rate.ok) return refuse({ kind: 'rate', allowed: rate.allowed, current: rate.current, backoffSeconds: rate.backoffSeconds });
    }
    window?.add(now, credits);
    this.usage.charge(key.key, now, priced);
    return { ok: true, forwarded, credits };
  }

  /** Forgets usage (and rate windows) of one key or all. */
  resetUsage(key?: string): void {
    this.usage.reset(key);
    if (key === undefined) this.windows.clear();
    else this.windows.delete(key);
  }
}
