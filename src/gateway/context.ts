/**
 * What the gateway's HTTP and WebSocket halves share, in a module of its own so that server.ts, http.ts,
 * rawHttp.ts, expressApp.ts and ws.ts import it, not each other (no import cycle).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import type { AdminGuard } from '../admin/guard.js';
import type { Network } from '../network.js';
import type { GatewayControl } from './control.js';
import type { GatewayLimits } from './limits.js';
import type { Policy } from './policy/index.js';

/** The path of the admin interface (devgate_* JSON-RPC). */
export const ADMIN_PATH = '/admin';

/** What the HTTP and WebSocket halves share. */
export interface GatewayContext {
  readonly networks: ReadonlyMap<string, Network>;
  readonly names: ReadonlySet<string>;
  /** The network the bare address (`/`) serves, if any. */
  readonly bare?: string;
  readonly policy: Policy;
  readonly control: GatewayControl;
  /** Who may use the admin interface (token, Origin, Host). */
  readonly admin: AdminGuard;
  limits(): GatewayLimits;
  /** The open WebSocket connections of each key. */
  readonly sockets: Map<string, Set<WebSocket>>;
  /** The WebSocket server, made on first use. */
  wss(): WebSocketServer;
  /** The explorer (src/explorer): serves a browser's GET of its pages and answers true, else false; absent when off. */
  explorer?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/** Close code and reason for WebSocket connections of a key over its daily quota. */
export const QUOTA_CLOSE = { code: 1008, reason: 'daily request count exceeded' } as const;
