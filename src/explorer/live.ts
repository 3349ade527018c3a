/**
 * The explorer's live stream: `GET /explorer/api/live` is one server-sent event stream for every network (one
 * connection of the browser's six per origin, however many networks). Its first event, `hello`, names the stream;
 * the page then subscribes with `POST /explorer/api/rpc/<network>?stream=<id>` (eth_subscribe, the rollup's
 * subscribe methods), which runs on the stream's own connection to that network, as a WebSocket message would, and
 * every notification arrives as an event `net` whose data is `<network> <notification JSON>`.
 *
 * Budgets: streams open at once (MAX_STREAMS; a further one is refused, 503), subscription calls per stream
 * (MAX_CALLS), and bytes a stream may hold unsent (MAX_UNSENT: a reader that falls that far behind is closed, as a
 * slow WebSocket reader is; the page's EventSource reconnects and subscribes again).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayContext } from '../gateway/context.js';
import type { Caller } from '../gateway/policy/index.js';
import type { Network, NetworkConnection } from '../networkTypes.js';
import { plainHex } from '../hex.js';
import { parseJson } from '../rpc/envelope.js';
import { answerRead } from './reads.js';
import { SECURITY } from './settings.js';

export const MAX_STREAMS = 64;
export const MAX_CALLS = 1000;
export const MAX_UNSENT = 4 * 1024 * 1024;
/** A comment line this often keeps an idle stream's connection from being taken for a dead one. */
const HEARTBEAT_MS = 15_000;

interface Stream {
  readonly res: ServerResponse;
  readonly caller: Caller;
  readonly conns: Map<string, NetworkConnection>;
  calls: number;
}

export class LiveStreams {
  private readonly streams = new Map<string, Stream>();

  constructor(
    private readonly ctx: GatewayContext,
    /** Each rollup network's method prefix (ExplorerSettings.prefix). */
    private readonly prefix: Readonly<Record<string, string>>,
  ) {}

  /** Opens a stream for this request's caller. */
  open(req: IncomingMessage, res: ServerResponse, caller: Caller): void {
    if (this.streams.size >= MAX_STREAMS) {
      res.writeHead(503, { ...SECURITY, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(`the explorer serves at most ${MAX_STREAMS} live streams at once\n`);
      return;
    }
    const id = plainHex(randomBytes(16));
    const stream: Stream = { res, caller, conns: new Map(), calls: 0 };
    this.streams.set(id, stream);
    res.writeHead(200, { ...SECURITY, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' });
    res.write(`event: hello\ndata: ${id}\n\n`);
    const beat = setInterval(() => res.write(': \n\n'), HEARTBEAT_MS);
    beat.unref();
    const end = (): void => {
      clearInterval(beat);
      for (const conn of stream.conns.values()) conn.close();
      stream.conns.clear();
      this.streams.delete(id);
    };
    res.on('close', end);
    req.on('close', end);
  }

  /** Runs a message of the page on stream `id`'s connection to `network` (subscriptions), answered as answerRead does. */
  async call(id: string, network: Network, text: string, caller: Caller): Promise<{ status: number; text: string }> {
    const stream = this.streams.get(id);
    if (stream === undefined || stream.caller.key.key !== caller.key.key) return failed(`no live stream ${JSON.stringify(id)} (closed, or not yours)`);
    const parsed = parseJson(text);
    const calls = parsed.ok && Array.isArray(parsed.value) ? parsed.value.length : 1;
    if (stream.calls + calls > MAX_CALLS) return failed(`a live stream takes at most ${MAX_CALLS} subscription calls; reload the page`);
    stream.calls += calls;
    return answerRead(this.ctx, network, this.prefix[network.name], text, caller, this.connection(stream, network));
  }

  private connection(stream: Stream, network: Network): NetworkConnection | undefined {
    let conn = stream.conns.get(network.name);
    if (conn !== undefined || network.connect === undefined) return conn;
    const { res } = stream;
    const push = (text: string): boolean => {
      if (res.destroyed) return false;
      if (res.writableLength > MAX_UNSENT) {
        res.destroy();
        return false;
      }
      // A JSON text holds line breaks only as whitespace between tokens: dropping them keeps the event one line.
      res.write(`event: net\ndata: ${network.name} ${text.replace(/[\r\n]/g, '')}\n\n`);
      return true;
    };
    const key = stream.caller.key.key;
    conn = network.connect(push, { key, maxSubscriptions: () => this.ctx.limits().maxSubscriptionsPerKey });
    stream.conns.set(network.name, conn);
    return conn;
  }
}

function failed(message: string): { status: number; text: string } {
  return { status: 200, text: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32602, message } }) };
}
