/**
 * The gateway: one HTTP server (express) and one WebSocket server (ws) on the same port, routing
 * each request to its network by path prefix or Host header.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import express, { type Request, type Response } from 'express';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Network } from '../network.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import { failure } from '../rpc/envelope.js';
import { answerText } from './answer.js';
import { resolveRoute } from './route.js';

export interface GatewayLimits {
  /** Most calls in one batch. */
  readonly maxBatch: number;
  /** Largest HTTP body and WebSocket message, in bytes. */
  readonly maxBodyBytes: number;
}

export const DEFAULT_LIMITS: GatewayLimits = { maxBatch: 1000, maxBodyBytes: 5 * 1024 * 1024 };

export class GatewayServer {
  private readonly byName: Map<string, Network>;
  private readonly names: ReadonlySet<string>;
  private readonly server: Server;
  private readonly wss: WebSocketServer;

  constructor(
    networks: readonly Network[],
    private readonly limits: GatewayLimits = DEFAULT_LIMITS,
  ) {
    this.byName = new Map(networks.map((n) => [n.name, n]));
    this.names = new Set(this.byName.keys());
    this.server = createServer(this.httpApp());
    this.wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxBodyBytes });
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /** Closes every WebSocket and HTTP connection and frees the port. */
  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private httpApp(): express.Express {
    const app = express();
    app.disable('x-powered-by');
    app.disable('etag');
    app.use(express.text({ type: () => true, limit: this.limits.maxBodyBytes }));
    app.all('/{*path}', (req, res) => void this.http(req, res));
    app.use((err: { type?: string; status?: number }, _req: Request, res: Response, _next: unknown) => {
      if (err.type === 'entity.too.large') {
        res.status(413).json(failure(null, new RpcError(ErrorCode.LimitExceeded, `request body is over the limit of ${this.limits.maxBodyBytes} bytes`)));
      } else if (err.status !== undefined && err.status < 500) {
        res.status(err.status).json(failure(null, new RpcError(ErrorCode.InvalidRequest, 'invalid request body')));
      } else {
        res.status(500).json(failure(null, new RpcError(ErrorCode.InternalError, 'internal error')));
      }
    });
    return app;
  }

  private async http(req: Request, res: Response): Promise<void> {
    const route = resolveRoute(req.path, req.headers.host, this.names);
    if (route.kind === 'not-found' || route.transport === 'ws') {
      res.status(404).json({ error: 'not found', networks: [...this.names].map((n) => `/${n}/v3/<API_KEY>`) });
      return;
    }
    if (route.kind === 'missing-key') {
      res.status(401).type('text/plain').send('project id required in the url\n');
      return;
    }
    if (route.kind === 'invalid-key') {
      res.status(401).type('text/plain').send('invalid project id\n');
      return;
    }
    if (req.method !== 'POST') {
      res.status(405).set('Allow', 'POST').json(failure(null, new RpcError(ErrorCode.InvalidRequest, `method ${req.method} not allowed, use POST`)));
      return;
    }
    const network = this.byName.get(route.network)!;
    const text = typeof req.body === 'string' ? req.body : '';
    const response = await answerText(text, network, this.limits);
    if (response === undefined) res.status(204).end();
    else res.status(200).type('application/json').send(JSON.stringify(response));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = resolveRoute(url.pathname, req.headers.host, this.names);
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
    };
    if (route.kind === 'not-found' || route.transport !== 'ws') return refuse(404, 'Not Found');
    if (route.kind === 'missing-key') return refuse(401, 'project id required in the url');
    if (route.kind === 'invalid-key') return refuse(401, 'invalid project id');
    const network = this.byName.get(route.network)!;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.serveSocket(ws, network));
  }

  private serveSocket(ws: WebSocket, network: Network): void {
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      void answerText(text, network, this.limits).then((response) => {
        if (response !== undefined && ws.readyState === ws.OPEN) ws.send(JSON.stringify(response));
      });
    });
    ws.on('error', () => ws.terminate());
  }
}
