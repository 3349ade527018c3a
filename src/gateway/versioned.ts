/** The network a route means: the network itself, or its view of the route's RPC version (`/rpc/v0_9`). */
import type { Network } from '../networkTypes.js';
import type { Route } from './route.js';

/** The network to answer a route with; undefined when the network does not serve the version asked for. */
export function networkFor(network: Network, route: Extract<Route, { kind: 'rpc' }>): Network | undefined {
  return route.rpcVersion === undefined ? network : network.atRpcVersion?.(route.rpcVersion);
}
