/**
 * Allowlists of a key: methods, origins, user agents and contract addresses. Entries of one kind
 * are ORed, kinds are ANDed; a kind that is absent or empty allows everything.
 */
import { ANY_ACCOUNT, type MethodFacts, type Revealed } from '../../rpc/method.js';
import type { Allowlist } from './keys.js';

/** What the allowlists look at in a request's headers. */
export interface RequestHeaders {
  readonly origin?: string;
  readonly userAgent?: string;
}

/** A call as the policy sees it: its method and raw params. */
export interface PolicyCall {
  readonly method: string;
  readonly params: unknown;
}

function active(list: readonly string[] | undefined): list is readonly string[] {
  return list !== undefined && list.length > 0;
}

/** Whether an `Origin` header matches an entry: `example.com`, `https://example.com`, `*.example.com`. */
export function originMatches(origin: string, entry: string): boolean {
  let scheme: string | undefined;
  let hostWithPort: string;
  let hostname: string;
  try {
    const url = new URL(origin);
    scheme = url.protocol.slice(0, -1);
    hostWithPort = url.host.toLowerCase();
    hostname = url.hostname.toLowerCase();
  } catch {
    hostWithPort = hostname = origin.toLowerCase();
  }
  let pattern = entry.toLowerCase();
  const sep = pattern.indexOf('://');
  if (sep >= 0) {
    if (pattern.slice(0, sep) !== scheme) return false;
    pattern = pattern.slice(sep + 3);
  }
  pattern = pattern.replace(/\/+$/, '');
  const host = pattern.includes(':') ? hostWithPort : hostname;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/** Origin and user-agent allowlists: checked once per HTTP request or WebSocket upgrade. */
export function headersAllowed(list: Allowlist | undefined, headers: RequestHeaders): boolean {
  if (list === undefined) return true;
  if (active(list.origins)) {
    const origin = headers.origin;
    if (origin === undefined || !list.origins.some((e) => originMatches(origin, e))) return false;
  }
  if (active(list.userAgents)) {
    const ua = headers.userAgent;
    if (ua === undefined || !list.userAgents.some((e) => ua.includes(e))) return false;
  }
  return true;
}

/** An address as the contracts allowlist compares it: lower case, no leading zeros (Starknet felts are written both ways). */
export function normalizedAddress(a: string): string {
  return a.toLowerCase().replace(/^0x0*/, '0x');
}

/**
 * The accounts a call reveals or runs, by its method's `reveals` fact (src/rpc/method.ts) on its raw params: undefined
 * for a method that reveals no account's state, ANY_ACCOUNT where they cannot be bounded.
 */
export function revealedBy(facts: MethodFacts, call: PolicyCall): Revealed | undefined {
  if (facts.reveals === undefined) return undefined;
  try {
    return facts.reveals(call.params);
  } catch {
    return ANY_ACCOUNT;
  }
}

/**
 * Method and contract allowlists: checked for every call of a request. The contracts allowlist refuses a call that
 * reveals or runs an account outside it, or accounts it cannot bound (ANY_ACCOUNT).
 */
export function callAllowed(list: Allowlist | undefined, call: PolicyCall, facts: MethodFacts): boolean {
  if (list === undefined) return true;
  if (active(list.methods) && !list.methods.includes(call.method)) return false;
  if (active(list.contracts)) {
    const revealed = revealedBy(facts, call);
    if (revealed === ANY_ACCOUNT) return false;
    if (revealed !== undefined && revealed.length > 0) {
      const allowed = new Set(list.contracts.map(normalizedAddress));
      if (!revealed.every((a) => allowed.has(normalizedAddress(a)))) return false;
    }
  }
  return true;
}
