/**
 * Which network and key a request is for. A network is reached by path prefix
 * (`/mainnet/v3/<key>`, `/mainnet/ws/v3/<key>`) or by Host (`mainnet.localhost:8545` + `/v3/<key>`).
 * A rollup network is also reached at a versioned path, `/v3/<key>/rpc/v0_8` or `/rpc/v0_9`, as pathfinder
 * and juno serve each Starknet JSON-RPC version (`rpcVersion`: `0_8`, `0_9`; the network decides what it serves).
 * The bare address `/` (HTTP and WebSocket alike) is the `bare` network's, as the key `devgate` (`bare: true`), as
 * anvil serves its chain at `http://127.0.0.1:8545/`.
 */

/** The version segment after `/rpc/`: `v0_9` and the like. */
const RPC_VERSION = /^v(\d{1,2}_\d{1,2})$/;

export const KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The key a request to the bare address is served as (the key `url()` puts in an address when none is given). */
export const BARE_KEY = 'devgate';

export type Route =
  | { kind: 'rpc'; network: string; key: string; transport: 'http' | 'ws'; rpcVersion?: string; bare?: true }
  | { kind: 'missing-key'; network: string; transport: 'http' | 'ws' }
  | { kind: 'invalid-key'; network: string; transport: 'http' | 'ws' }
  | { kind: 'not-found' };

/** The network a Host header names as `<network>.localhost[:port]`, if any. */
export function networkFromHost(host: string | undefined, networks: ReadonlySet<string>): string | undefined {
  if (host === undefined) return undefined;
  const m = /^([a-z0-9-]+)\.localhost(?::\d+)?$/i.exec(host);
  const name = m?.[1]?.toLowerCase();
  return name !== undefined && networks.has(name) ? name : undefined;
}

/** Resolves a request path (without query) and Host header to a route; `bare`: the network the bare address serves. */
export function resolveRoute(pathname: string, host: string | undefined, networks: ReadonlySet<string>, bare?: string): Route {
  if (pathname === '/' && bare !== undefined && networkFromHost(host, networks) === undefined)
    return { kind: 'rpc', network: bare, key: BARE_KEY, transport: 'http', bare: true };
  const segments = pathname.split('/').filter((s) => s !== '');
  let network = networkFromHost(host, networks);
  let rest = segments;
  if (segments.length > 0 && networks.has(segments[0]!)) {
    network = segments[0]!;
    rest = segments.slice(1);
  }
  if (network === undefined) return { kind: 'not-found' };
  let transport: 'http' | 'ws' = 'http';
  if (rest[0] === 'ws') {
    transport = 'ws';
    rest = rest.slice(1);
  }
  if (rest[0] !== 'v3') return { kind: 'not-found' };
  if (rest.length === 1) return { kind: 'missing-key', network, transport };
  let rpcVersion: string | undefined;
  if (rest.length === 4 && rest[2] === 'rpc' && RPC_VERSION.test(rest[3]!)) {
    rpcVersion = RPC_VERSION.exec(rest[3]!)![1]!;
  } else if (rest.length !== 2) return { kind: 'not-found' };
  const key = decodeSegment(rest[1]!);
  if (key === undefined || !KEY_PATTERN.test(key)) return { kind: 'invalid-key', network, transport };
  return rpcVersion === undefined ? { kind: 'rpc', network, key, transport } : { kind: 'rpc', network, key, transport, rpcVersion };
}

function decodeSegment(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** resolveRoute with its answers remembered per Host and path: a client sends the same address again and again. */
export class RouteCache {
  private readonly routes = new Map<string, Route>();

  constructor(
    private readonly networks: ReadonlySet<string>,
    private readonly bare?: string,
    private readonly capacity = 1024,
  ) {}

  /** The route of a path (without query) and Host header; the answer is shared, callers must not change it. */
  resolve(pathname: string, host: string | undefined): Route {
    // Neither a header value nor a request target holds a line feed.
    const key = host === undefined ? pathname : `${host}\n${pathname}`;
    let route = this.routes.get(key);
    if (route === undefined) {
      if (this.routes.size >= this.capacity) this.routes.clear();
      this.routes.set(key, (route = resolveRoute(pathname, host, this.networks, this.bare)));
    }
    return route;
  }
}
