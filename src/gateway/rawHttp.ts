/**
 * The short path on raw sockets, in front of node:http: a connection's bytes are read here first, and a
 * plain JSON-RPC POST (rawHead.ts) the gateway serves is answered here with the very bytes node:http would
 * write (status line, the same headers in the same order, Date, Connection, Keep-Alive), in one write.
 * Node's layers (IncomingMessage, ServerResponse, header objects, a writev per answer) were most of a simple
 * read's server CPU. Anything else (another method, chunked, Upgrade, HTTP/1.0, an odd header, a long head)
 * is handed to node:http before any of its bytes are used, with the answers already due written first; the
 * connection then stays with node:http.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Answerer, RequestHead, Take } from './http.js';
import { ENCODE_ONCE_FROM, withoutBom } from './http.js';
import { CORS, FORWARDED, headerLines, JSON_TYPE, TEXT_TYPE } from './headers.js';
import type { GatewayLimits } from './limits.js';
import { MAX_PLAIN_HEAD, PlainHeads } from './rawHead.js';
import type { TextReply } from './replies.js';

const HEAD_END = Buffer.from('\r\n\r\n');
/** Answers started but not yet written, per connection, before reading pauses. */
const MAX_IN_FLIGHT = 64;
/** Sweeps without a read or write before an idle connection is closed; see RawHttpFront.sweep. */
const IDLE_SWEEPS = 4;
const CORS_LINES = headerLines(CORS);
const FORWARDED_LINE = headerLines([FORWARDED]);
const JSON_LINE = headerLines([['Content-Type', JSON_TYPE]]);
const TEXT_LINE = headerLines([['Content-Type', TEXT_TYPE]]);
/** What node:http writes when a request's headers or body did not arrive in time. */
const TIMED_OUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/** Takes every new connection of a node:http server first; see the module comment. */
export class RawHttpFront {
  private readonly open = new Map<Socket, RawConnection>();
  private readonly nodeListeners: ((socket: Socket) => void)[];
  readonly heads = new PlainHeads();
  /** Counts idle sweeps; a connection notes it at each read and write. */
  tick = 0;
  private sweeper: NodeJS.Timeout | undefined;
  private keepAlive = { ms: Number.NaN, lines: '' };

  constructor(
    private readonly server: Server,
    readonly short: (head: RequestHead) => Take | undefined,
    readonly limits: () => GatewayLimits,
  ) {
    this.nodeListeners = server.listeners('connection') as ((socket: Socket) => void)[];
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      this.open.set(socket, new RawConnection(this, socket));
      socket.once('close', () => this.open.delete(socket));
      this.sweeper ??= setTimeout(() => this.sweep(), this.sweepMs()).unref();
    });
  }

  /**
   * Closes the connections idle (no request under way) for IDLE_SWEEPS sweeps, a sweep every quarter of
   * keepAliveTimeoutMs: so after 1 to 1.25 times that. One timer for all, instead of a socket timeout
   * refreshed on every read and write.
   */
  private sweep(): void {
    this.tick++;
    for (const conn of this.open.values()) conn.closeIfIdle(this.tick);
    this.sweeper = this.open.size === 0 ? undefined : setTimeout(() => this.sweep(), this.sweepMs()).unref();
  }

  private sweepMs(): number {
    return Math.max(1, Math.floor(this.limits().keepAliveTimeoutMs / IDLE_SWEEPS));
  }

  /** The Connection and Keep-Alive lines of a keep-alive answer, made again only when the limit changes. */
  keepAliveLines(): string {
    const ms = this.limits().keepAliveTimeoutMs;
    if (ms !== this.keepAlive.ms) this.keepAlive = { ms, lines: `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(ms / 1000)}\r\n` };
    return this.keepAlive.lines;
  }

  /** Gives a connection (its unread bytes put back first) to node:http. */
  handOver(socket: Socket): void {
    this.open.delete(socket);
    for (const listener of this.nodeListeners) listener.call(this.server, socket);
  }

  /** Ends every connection still on the short path (node:http's own are closed by closeAllConnections). */
  closeAll(): void {
    for (const socket of this.open.keys()) socket.destroy();
    this.open.clear();
    clearTimeout(this.sweeper);
    this.sweeper = undefined;
  }
}

/** One answer in a connection's order: its bytes once known. */
class Slot implements Answerer {
  bytes: string | Buffer[] | undefined;

  constructor(
    private readonly conn: RawConnection,
    private readonly keepAlive: boolean,
  ) {}

  json(status: number, text: string, forwarded: boolean): void {
    const type = (forwarded ? FORWARDED_LINE : '') + JSON_LINE;
    if (text.length < ENCODE_ONCE_FROM) {
      this.done(this.head(status, type, Buffer.byteLength(text)) + text);
      return;
    }
    // Encoded once (see NodeAnswerer.json), behind the head in the same Buffer: one write, not a writev of two
    // (a 56 KB struct log: Buffer.from alone costs more than sizing it and writing it in place).
    const length = Buffer.byteLength(text);
    const head = this.head(status, type, length);
    const bytes = Buffer.allocUnsafe(head.length + length);
    bytes.write(head, 0, 'latin1');
    bytes.write(text, head.length, 'utf8');
    this.done([bytes]);
  }

  text(r: TextReply): void {
    let lines = '';
    for (const [name, value] of Object.entries(r.headers)) lines += `${name}: ${value}\r\n`;
    this.done(this.head(r.status, lines + TEXT_LINE, Buffer.byteLength(r.text)) + r.text);
  }

  empty(forwarded: boolean): void {
    this.done(this.head(204, forwarded ? FORWARDED_LINE : '', undefined));
  }

  fail(): void {
    this.conn.socket.destroy();
  }

  /** Status line and headers as node:http writes them after the gateway's own (CORS first, then `lines`). */
  private head(status: number, lines: string, length: number | undefined): string {
    const size = length === undefined ? '' : `Content-Length: ${length}\r\n`;
    const connection = this.keepAlive ? this.conn.keepAliveLines() : 'Connection: close\r\n';
    return `${statusLines(status)}${lines}${size}${dateLine()}${connection}\r\n`;
  }

  private done(bytes: string | Buffer[]): void {
    if (this.bytes !== undefined) return;
    this.bytes = bytes;
    this.conn.flush();
  }
}

/** A connection while it is on the short path. */
class RawConnection {
  /** The idle sweep (RawHttpFront.tick) of the last read or write. */
  private seen: number;
  /** Bytes read and not yet used. */
  private unread: Buffer | undefined;
  /** Chunks read after `unread` while a body is still arriving, and their length. */
  private more: Buffer[] = [];
  private moreLength = 0;
  /** The head of the request whose body is still arriving. */
  private waiting: { take: Take; bodyStart: number; end: number; keepAlive: boolean } | undefined;
  private readonly answers: Slot[] = [];
  /** open: reading; handing: node:http gets the connection once the answers due are written; ending: no more requests. */
  private state: 'open' | 'handing' | 'ending' = 'open';
  private partialTimer: NodeJS.Timeout | undefined;
  private readonly onData = (chunk: Buffer) => this.read(chunk);
  private readonly onEnd = () => this.clientEnded();
  private readonly onError = () => this.socket.destroy();
  private readonly onDrain = () => this.resumeIfRoom();

  constructor(
    private readonly front: RawHttpFront,
    readonly socket: Socket,
  ) {
    this.seen = front.tick;
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
    socket.on('drain', this.onDrain);
    socket.once('close', () => clearTimeout(this.partialTimer));
  }

  keepAliveLines(): string {
    return this.front.keepAliveLines();
  }

  private read(chunk: Buffer): void {
    if (this.state !== 'open') return;
    this.seen = this.front.tick;
    if (this.unread === undefined) this.unread = chunk;
    else {
      // A long body arrives in many chunks: they are joined once it is whole, not one by one.
      this.more.push(chunk);
      this.moreLength += chunk.length;
      const length = this.unread.length + this.moreLength;
      if (this.waiting !== undefined && length < this.waiting.end) return;
      this.unread = Buffer.concat([this.unread, ...this.more], length);
      this.more = [];
      this.moreLength = 0;
    }
    this.parse();
  }

  /** Serves every whole request in `unread`, in order, until one must go to node:http. */
  private parse(): void {
    while (this.unread !== undefined && this.state === 'open') {
      const buf = this.unread;
      if (this.waiting === undefined) {
        if (!startsLikePost(buf)) {
          this.handToNode();
          return;
        }
        const headEnd = buf.indexOf(HEAD_END);
        if (headEnd < 0 || headEnd > MAX_PLAIN_HEAD) {
          if (headEnd > MAX_PLAIN_HEAD || buf.length > MAX_PLAIN_HEAD + HEAD_END.length) {
            this.handToNode();
            return;
          }
          break; // the rest of the head is still to come
        }
        const head = this.front.heads.read(buf.toString('latin1', 0, headEnd));
        const take = head === undefined ? undefined : this.front.short(head);
        if (head === undefined || take === undefined) {
          this.handToNode();
          return;
        }
        const bodyStart = headEnd + HEAD_END.length;
        this.waiting = { take, bodyStart, end: bodyStart + head.contentLength, keepAlive: head.keepAlive };
      }
      const { take, bodyStart, end, keepAlive } = this.waiting;
      if (buf.length < end) break; // the rest of the body is still to come
      const text = withoutBom(buf.toString('utf8', bodyStart, end));
      this.unread = end === buf.length ? undefined : buf.subarray(end);
      this.waiting = undefined;
      this.stopWatch();
      const slot = new Slot(this, keepAlive);
      this.answers.push(slot);
      if (!keepAlive) {
        this.state = 'ending';
        this.unread = undefined;
      }
      try {
        take(text, slot);
      } catch {
        slot.fail();
        return;
      }
    }
    this.watchPartial();
    if (this.answers.length >= MAX_IN_FLIGHT) this.socket.pause();
  }

  /** Writes the answers that are ready, in request order, in one write where they are strings. */
  flush(): void {
    let text = '';
    let ready = 0;
    while (ready < this.answers.length && this.answers[ready]!.bytes !== undefined) ready++;
    if (ready === 0 || this.socket.destroyed) return;
    this.seen = this.front.tick;
    let room: boolean;
    const first = this.answers[0]!.bytes!;
    if (ready === 1 && typeof first === 'string') {
      // The usual case (one answer ready, a string): written as it is, no list of parts made.
      this.answers.shift();
      room = this.socket.write(first);
    } else {
      const done = this.answers.splice(0, ready);
      const parts: (string | Buffer)[] = [];
      for (const slot of done) {
        if (typeof slot.bytes === 'string') text += slot.bytes;
        else {
          if (text !== '') parts.push(text);
          text = '';
          parts.push(...slot.bytes!);
        }
      }
      if (text !== '') parts.push(text);
      if (parts.length > 1) this.socket.cork();
      room = true;
      for (const p of parts) room = this.socket.write(p);
      if (parts.length > 1) this.socket.uncork();
    }
    if (!room) this.socket.pause(); // until 'drain'
    if (this.answers.length > 0) return;
    if (this.state === 'ending') this.socket.destroySoon();
    else if (this.state === 'handing') this.giveAway();
    else this.resumeIfRoom();
  }

  /** Reading goes on while the client takes its answers and few are under way. */
  private resumeIfRoom(): void {
    if (this.state === 'open' && this.answers.length < MAX_IN_FLIGHT && !this.socket.writableNeedDrain && this.socket.isPaused()) this.socket.resume();
  }

  /** Leaves the connection to node:http once every answer due is written. */
  private handToNode(): void {
    this.state = 'handing';
    this.socket.pause();
    if (this.answers.length === 0) this.giveAway();
  }

  private giveAway(): void {
    const socket = this.socket;
    socket.off('data', this.onData);
    socket.off('end', this.onEnd);
    socket.off('error', this.onError);
    socket.off('drain', this.onDrain);
    this.stopWatch();
    if (this.unread !== undefined) socket.unshift(this.unread);
    this.unread = undefined;
    this.front.handOver(socket);
    socket.resume();
  }

  /**
   * A request whose head or body is still arriving gets node:http's time limits, counted from its first bytes:
   * headersTimeoutMs for the head, requestTimeoutMs for the whole; then 408 and the connection ends.
   */
  private watchPartial(): void {
    if (this.unread === undefined || this.state !== 'open') {
      this.stopWatch();
      return;
    }
    if (this.partialTimer !== undefined) return;
    const since = Date.now();
    const check = (): void => {
      if (this.state !== 'open' || this.unread === undefined) return;
      const limits = this.front.limits();
      const left =
        this.waiting === undefined
          ? since + Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) - Date.now()
          : since + limits.requestTimeoutMs - Date.now();
      if (left > 0) {
        this.partialTimer = setTimeout(check, left);
        return;
      }
      this.state = 'ending';
      this.socket.write(TIMED_OUT);
      this.socket.destroySoon();
    };
    this.partialTimer = setTimeout(check, Math.min(this.front.limits().headersTimeoutMs, this.front.limits().requestTimeoutMs));
  }

  private stopWatch(): void {
    clearTimeout(this.partialTimer);
    this.partialTimer = undefined;
  }

  /** node:http's way (no half-open connections): a client's end ends the connection, answers pending or not. */
  private clientEnded(): void {
    this.state = 'ending';
    if (!this.socket.writableEnded) this.socket.end();
  }

  /** An idle keep-alive connection is closed (silently, as node:http does); one with work under way stays. */
  closeIfIdle(tick: number): void {
    if (tick - this.seen > IDLE_SWEEPS && this.answers.length === 0 && this.unread === undefined) this.socket.destroy();
  }
}

/** Whether the bytes start as `POST /` does (as far as they go). */
function startsLikePost(b: Buffer): boolean {
  const n = b.length;
  return (
    b[0] === 0x50 && (n < 2 || b[1] === 0x4f) && (n < 3 || b[2] === 0x53) && (n < 4 || b[3] === 0x54) && (n < 5 || b[4] === 0x20) && (n < 6 || b[5] === 0x2f)
  );
}

/** The status line and the CORS lines of each status, made once. */
const STATUS_LINES = new Map<number, string>();

function statusLines(status: number): string {
  let lines = STATUS_LINES.get(status);
  if (lines === undefined) STATUS_LINES.set(status, (lines = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${CORS_LINES}`));
  return lines;
}

let cachedDate = '';

/** The Date header line, made at most once a second (as node:http does). */
function dateLine(): string {
  if (cachedDate === '') {
    const now = new Date();
    cachedDate = `Date: ${now.toUTCString()}\r\n`;
    setTimeout(() => (cachedDate = ''), 1000 - now.getMilliseconds()).unref();
  }
  return cachedDate;
}
