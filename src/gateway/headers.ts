/**
 * The gateway's response headers, in one place: CORS (any origin, as a hosted gateway answers browsers; the
 * origins allowlist is what restricts them; never on the admin interface), the forwarded marker, the JSON content
 * type, and the preflight's. node:http (http.ts), the raw-socket front (rawHttp.ts) and express (expressApp.ts) all
 * write these.
 */

/** Name/value pairs, in the order every path writes them. */
export const CORS: readonly (readonly [string, string])[] = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', 'X-Devgate-Forwarded'],
];
/** Marks an answer given by the partner provider during an outage. */
export const FORWARDED: readonly [string, string] = ['X-Devgate-Forwarded', 'partner'];
/** Added to CORS for an OPTIONS preflight (answered 204). */
export const PREFLIGHT: readonly (readonly [string, string])[] = [
  ['Access-Control-Allow-Methods', 'POST, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Content-Type, Authorization, Enable-Failover'],
  ['Access-Control-Max-Age', '600'],
];
export const JSON_TYPE = 'application/json; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

/** Pairs as an object (node:http writeHead, express set). */
export function headerObject(pairs: readonly (readonly [string, string])[]): Record<string, string> {
  return Object.fromEntries(pairs);
}

/** Pairs as a flat list (node:http writeHead without a header object). */
export function headerList(pairs: readonly (readonly [string, string])[]): string[] {
  return pairs.flat();
}

/** Pairs as raw header lines (the raw-socket front). */
export function headerLines(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([n, v]) => `${n}: ${v}\r\n`).join('');
}
