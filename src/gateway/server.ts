/**
 * The gateway: one HTTP server (express) and one WebSocket server (ws) on the same port. Each
 * request is routed to its network (path prefix or Host header), passed through the key's policy
 * (src/gateway/policy) and then answered by the network's dispatch table.
 */
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import type { WebSocket, WebSocketServer } from 'ws';
import { AdminGuard, newAdminToken } from '../admin/guard.js';
import type { Clock } from '../clock.js';
import type { Network } from '../network.js';
import { createControl, type GatewayControl } from './control.js';
import { httpHandlers } from './http.js';
import type { GatewayContext } from './context.js';
import { QUOTA_CLOSE } from './context.js';
import { startIdleGc } from './idleGc.js';
import { DEFAULT_LIMITS, type GatewayLimits } from './limits.js';
import { Policy } from './policy/index.js';
import { OPEN_KEYS, type KeysConfig } from './policy/keys.js';
import { createProvider, type DevgateProvider, type ProviderOptions } from './provider.js';
import { RawHttpFront } from './rawHttp.js';
import { handleUpgrade } from './ws.js';

export { DEFAULT_LIMITS, type GatewayLimits } from './limits.js';

export interface GatewayOptions {
  readonly limits?: GatewayLimits;
  /** Keys and plans; default: open, any well-formed key, no rate or daily limit (the `unlimited` plan). */
  readonly keys?: KeysConfig;
  readonly clock?: Clock;
  /** The raw HTTP front (rawHttp.ts) answers plain JSON-RPC POSTs itself; false: node:http serves everything (default true). */
  readonly rawHttp?: boolean;
  /** Full GCs when the process goes idle after work (idleGc.ts); only the CLI turns it on (default false). */
  readonly idleGc?: boolean;
  /** The admin interface's token (default: made here) and the host devgate binds, which it accepts as Host (default 127.0.0.1). */
  readonly admin?: { readonly token?: string; readonly host?: string };
  /** The network the bare address (`/`, HTTP and WebSocket) serves as the key `devgate`; default none. */
  readonly bare?: string;
  /** The explorer's request handler, made from the gateway's context (src/explorer); default none. */
  readonly explorer?: (ctx: GatewayContext) => GatewayContext['explorer'];
}

export { QUOTA_CLOSE, type GatewayContext } from './context.js';

export class GatewayServer {
  readonly policy: Policy;
  readonly control: GatewayControl;
  private readonly server: Server;
  /** Reads each connection first and answers plain JSON-RPC POSTs itself (rawHttp.ts); absent when turned off. */
  private readonly front: RawHttpFront | undefined;
  private readonly idleGc: boolean;
  /** Made on the first upgrade request: loading ws is ~40 ms of a start that may serve no WebSocket. */
  private wss: WebSocketServer | undefined;
  private limits: GatewayLimits;
  private readonly sockets = new Map<string, Set<WebSocket>>();
  /** Every open TCP connection, counted for `connections()` (HTTP and WebSocket alike). */
  private readonly tcp = new Set<Socket>();
  /** Stops the full GCs run when the process goes idle after work (idleGc.ts), while listening. */
  private stopIdleGc: (() => void) | undefined;
  /** What the HTTP and WebSocket halves share; the in-process provider uses it too. */
  private readonly ctx: GatewayContext;

  constructor(networks: readonly Network[], options: GatewayOptions = {}) {
    const byName = new Map(networks.map((n) => [n.name, n]));
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.policy = new Policy(options.keys ?? OPEN_KEYS, options.clock ?? { now: () => Date.now() }, (key) => this.closeSockets(key));
    const connections = () => ({ sockets: this.tcp.size, websockets: [...this.sockets.values()].reduce((n, set) => n + set.size, 0) });
    this.control = createControl(this.policy, [...byName.keys()], { get: () => this.limits, set: (next) => this.applyLimits(next) }, connections);
    const ctx: GatewayContext = (this.ctx = {
      networks: byName,
      names: new Set(byName.keys()),
      ...(options.bare === undefined ? {} : { bare: options.bare }),
      policy: this.policy,
      control: this.control,
      admin: new AdminGuard(options.admin?.token ?? newAdminToken(), options.admin?.host ?? '127.0.0.1'),
      limits: () => this.limits,
      sockets: this.sockets,
      wss: () => (this.wss ??= new (loadWs().WebSocketServer)({ noServer: true, maxPayload: this.limits.maxMessageBytes })),
    });
    if (options.explorer !== undefined) ctx.explorer = options.explorer(ctx);
    const shortest = Math.min(this.limits.headersTimeoutMs, this.limits.requestTimeoutMs);
    const handlers = httpHandlers(ctx);
    this.server = createServer({ connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(shortest / 4))) }, handlers.node);
    this.front = options.rawHttp === false ? undefined : new RawHttpFront(this.server, handlers.short, () => this.limits);
    // After the raw front, which takes the server's connection listeners as its own: every socket is counted here.
    this.server.prependListener('connection', (socket: Socket) => {
      this.tcp.add(socket);
      socket.once('close', () => this.tcp.delete(socket));
    });
    this.idleGc = options.idleGc === true;
    this.applyLimits(this.limits);
    this.server.on('upgrade', (req, socket, head) => handleUpgrade(ctx, req, socket, head));
  }

  /** An EIP-1193 provider of a network for a key, served in process with the same policy as HTTP (provider.ts). */
  provider(network: string, key: string, options?: ProviderOptions): DevgateProvider {
    const target = this.ctx.networks.get(network);
    if (target === undefined) throw new TypeError(`unknown network ${JSON.stringify(network)}; networks: ${[...this.ctx.names].join(', ')}`);
    return createProvider(this.ctx, target, key, options);
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    this.policy.listenHost = host;
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        if (this.idleGc) this.stopIdleGc ??= startIdleGc();
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /** Closes every WebSocket and HTTP connection and frees the port. */
  async close(): Promise<void> {
    this.stopIdleGc?.();
    this.stopIdleGc = undefined;
    const wss = this.wss;
    if (wss !== undefined) {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    }
    this.front?.closeAll();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private applyLimits(next: GatewayLimits): void {
    this.limits = next;
    this.server.requestTimeout = next.requestTimeoutMs;
    this.server.headersTimeout = next.headersTimeoutMs;
    this.server.keepAliveTimeout = next.keepAliveTimeoutMs;
    if (this.wss !== undefined) this.wss.options.maxPayload = next.maxMessageBytes;
  }

  /** Closes the WebSocket connections of a key that ran out of daily credits, after the answer in flight. */
  private closeSockets(key: string): void {
    const open = this.sockets.get(key);
    if (open === undefined) return;
    setImmediate(() => {
      for (const ws of open) ws.close(QUOTA_CLOSE.code, QUOTA_CLOSE.reason);
    });
  }
}

/** The ws package, loaded synchronously (it is CommonJS) so an upgrade is handled in the same turn. */
function loadWs(): typeof import('ws') {
  return createRequire(import.meta.url)('ws') as typeof import('ws');
}
