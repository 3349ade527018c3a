/**
 * Whether a request comes from a web page that must not reach a control surface (a `dev` method): one whose `Origin`
 * is not a loopback origin (another site's page, or a sandboxed one: `null`), or whose `Host` names this machine by a
 * name that is neither a loopback name, `<network>.localhost`, an IP address nor the configured host (DNS rebinding:
 * a page of evil.example whose name was made to resolve to 127.0.0.1). Clients that are not browsers (viem, ethers,
 * curl from Node or a shell) send no `Origin` and name the address they were given, and are never affected.
 */
import { isIP } from 'node:net';

/** What this looks at in a request's headers. */
export interface PageHeaders {
  readonly origin?: string;
  readonly host?: string;
}

/** localhost, a name under it (`mainnet.localhost`), 127.0.0.0/8 or ::1. */
function loopbackName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** Whether an `Origin` header is a loopback origin: http(s) on localhost, 127.0.0.0/8 or [::1], any port. */
export function loopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && loopbackName(url.hostname);
}

/** Whether a `Host` header can be no DNS rebinding: an IP address, a loopback name, or the host the gateway listens on. */
export function trustedHost(host: string, configuredHost: string | undefined): boolean {
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d*)?$/.exec(host.trim());
  if (m === null) return false;
  const name = m[1]!.toLowerCase();
  const bare = name.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0 || loopbackName(name)) return true;
  return configuredHost !== undefined && bare === configuredHost.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/** Why the request must not run dev methods (a sentence for the error), or undefined when it may. */
export function webPageReason(headers: PageHeaders, configuredHost: string | undefined): string | undefined {
  if (headers.origin !== undefined && !loopbackOrigin(headers.origin)) return 'the request comes from a web page (its Origin is not a loopback origin)';
  if (headers.host !== undefined && !trustedHost(headers.host, configuredHost))
    return "the request names this gateway by a foreign Host (not a loopback name, an IP address or the gateway's host)";
  return undefined;
}
