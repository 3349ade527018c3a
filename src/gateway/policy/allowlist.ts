/**
 * Allowlists of a key: methods, origins, user agents and contract addresses. Entries of one kind
 * are ORed, kinds are ANDed; a kind that is absent or empty allows everything.
 */
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

/** The methods whose address parameters the contract allowlist checks. */
export const ADDRESS_METHODS: ReadonlySet<string> = new Set([
  'eth_call',
  'eth_estimateGas',
  'eth_getLogs',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  // The addresses are the keys of its request object (issue 17): without this line it would read any contract's storage.
  'eth_getStorageValues',
]);

/**
 * The addresses a call queries, read from its raw params; undefined when the method is not one the
 * contract allowlist checks. An empty list means no address could be read (rejected when checked).
 */
export function queriedAddresses(call: PolicyCall): string[] | undefined {
  if (!ADDRESS_METHODS.has(call.method)) return undefined;
  const first: unknown = Array.isArray(call.params) ? call.params[0] : undefined;
  const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : []);
  const member = (name: string) =>
    first !== null && typeof first === 'object' && !Array.isArray(first)
      ? Object.hasOwn(first, name)
        ? (first as Record<string, unknown>)[name]
        : undefined
      : undefined;
  switch (call.method) {
    case 'eth_call':
    case 'eth_estimateGas':
      return strings(member('to'));
    case 'eth_getLogs':
      return strings(member('address'));
    case 'eth_getStorageValues':
      return first !== null && typeof first === 'object' && !Array.isArray(first) ? Object.keys(first) : [];
    default:
      return strings(first);
  }
}

/** Method and contract allowlists: checked for every call of a request. */
export function callAllowed(list: Allowlist | undefined, call: PolicyCall): boolean {
  if (list === undefined) return true;
  if (active(list.methods) && !list.methods.includes(call.method)) return false;
  if (active(list.contracts)) {
    const addresses = queriedAddresses(call);
    if (addresses !== undefined) {
      const allowed = new Set(list.contracts.map((a) => a.toLowerCase()));
      if (addresses.length === 0 || !addresses.every((a) => allowed.has(a.toLowerCase()))) return false;
    }
  }
  return true;
}
