/** The WebSocket half of the gateway: the upgrade (key, secret, allowlists, quota) and each message. */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Network } from '../network.js';
import { responseText } from '../rpc/envelope.js';
import { serveText } from './answer.js';
import type { Caller } from './policy/index.js';
import { BAD_SECRET, INVALID_KEY, MISSING_KEY, refusalBody, type TextReply } from './replies.js';
import { resolveRoute } from './route.js';
import { networkFor } from './versioned.js';
import type { GatewayContext } from './context.js';
import { frameMethod, UnsentBytes, type Unsent } from './unsent.js';
import { SendQueue } from './sendQueue.js';
import { sliceDone, slicePause } from '../turnSlice.js';

function refuse(socket: Duplex, status: number, statusText: string, headers: Readonly<Record<string, string>>, body: string, type: string): void {
  const lines = [`HTTP/1.1 ${status} ${statusText}`, `Content-Type: ${type}`, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

function refuseText(socket: Duplex, reply: TextReply): void {
  refuse(socket, reply.status, 'Unauthorized', reply.headers, reply.text, 'text/plain');
}

export function handleUpgrade(ctx: GatewayContext, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  socket.on('error', () => socket.destroy());
  const url = new URL(req.url ?? '/', 'http://localhost');
  const route = resolveRoute(url.pathname, req.headers.host, ctx.names, ctx.bare);
  // The bare address (`/`) takes an upgrade too, as anvil's.
  if (route.kind === 'not-found' || (route.transport !== 'ws' && !(route.kind === 'rpc' && route.bare === true))) {
    refuse(socket, 404, 'Not Found', {}, 'Not Found', 'text/plain');
    return;
  }
  if (route.kind === 'missing-key') {
    refuseText(socket, MISSING_KEY);
    return;
  }
  if (route.kind === 'invalid-key') {
    refuseText(socket, INVALID_KEY);
    return;
  }
  const auth = ctx.policy.authenticate(route.key, req.headers.authorization);
  if (!auth.ok) {
    refuseText(socket, auth.reason === 'unknown-key' ? INVALID_KEY : BAD_SECRET);
    return;
  }
  if (!ctx.policy.headersAllowed(auth, { origin: req.headers.origin, userAgent: req.headers['user-agent'] })) {
    refuse(socket, 403, 'Forbidden', {}, JSON.stringify(refusalBody({ kind: 'allowlist' }, null, 'http').body), 'application/json');
    return;
  }
  if (ctx.policy.overDailyQuota(auth.key)) {
    refuse(socket, 429, 'Too Many Requests', {}, JSON.stringify(refusalBody({ kind: 'daily' }, null, 'http').body), 'application/json');
    return;
  }
  const network = networkFor(ctx.networks.get(route.network)!, route);
  if (network === undefined) {
    refuse(socket, 404, 'Not Found', {}, 'Not Found', 'text/plain');
    return;
  }
  const caller: Caller = { ...auth, failover: /^true$/i.test(String(req.headers['enable-failover'] ?? '')), page: ctx.policy.pageOf(req.headers) };
  ctx.wss().handleUpgrade(req, socket, head, (ws) => serveSocket(ctx, ws, socket, network, caller));
}

/** Close code and reason when a connection's key has been removed. */
export const KEY_REMOVED = { code: 1008, reason: 'invalid project id' } as const;

/**
 * Close code and reason of a connection whose peer does not read what it is sent (past maxBufferedBytes, or holding
 * the most past maxBufferedBytesPerKey / maxBufferedBytesTotal), in geth's words.
 */
export const SLOW_READER = { code: 1008, reason: 'slow reader: subscription queue overflow' } as const;

/**
 * How long a slow reader's close frame may wait for the peer to read what is ahead of it (at most SEND_IN_FLIGHT bytes
 * in the process, and what the kernel's buffers hold): a peer that reads again within it gets everything written
 * before the close, then the 1008 frame. One that does not read by then is cut off (it sees the connection end without
 * a close frame, 1006). Until then the connection holds at most SEND_IN_FLIGHT bytes (and one frame) of the process.
 */
export const SLOW_READER_GRACE_MS = 30_000;

/**
 * Once the close frame is with the kernel (nothing waits in the process), the connection is cut off this long after
 * unless the peer answered the close first: the kernel still delivers what it holds, the close frame last, so a peer
 * that reads later sees 1008; the process keeps nothing of it.
 */
export const SLOW_READER_CLOSE_WAIT_MS = 1000;

/** How often a closing slow reader's socket is looked at (has the close frame left the process?). */
const SLOW_READER_POLL_MS = 100;

/**
 * Cuts off a connection closed as a slow reader (its close frame sent, after what the send queue had handed to ws):
 * SLOW_READER_CLOSE_WAIT_MS after the close frame has left the process for the kernel, or SLOW_READER_GRACE_MS after
 * the close when it never does. Answers what stops the watch (the connection closed meanwhile).
 */
function cutOffSlowReader(ws: WebSocket): () => void {
  let polls = Math.ceil(SLOW_READER_GRACE_MS / SLOW_READER_POLL_MS);
  let last: NodeJS.Timeout | undefined;
  const watch = setInterval(() => {
    // ws's own count (public): bytes of frames, the close frame among them, not yet written to the kernel.
    if (ws.bufferedAmount === 0) {
      clearInterval(watch);
      last = setTimeout(() => ws.terminate(), SLOW_READER_CLOSE_WAIT_MS).unref();
    } else if (--polls <= 0) {
      clearInterval(watch);
      ws.terminate();
    }
  }, SLOW_READER_POLL_MS).unref();
  return () => {
    clearInterval(watch);
    clearTimeout(last);
  };
}

/**
 * Characters of a connection's messages waiting to be served past which its socket is not read (ws.pause) until half
 * of them are: a client that sends faster than it is served holds at most this much (and a socket read) here.
 */
export const INBOX_PAUSE_BYTES = 1024 * 1024;

let ioTurnPromise: Promise<void> | undefined;
/** The next turn of the event loop (after pending I/O), one promise for everyone who asks in this turn. */
function ioTurn(): Promise<void> {
  return (ioTurnPromise ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      ioTurnPromise = undefined;
      resolve();
    }),
  ));
}

/** The unsent bytes of each gateway's connections, and how to close each of them. */
const unsentOf = new WeakMap<GatewayContext, UnsentBytes>();
const closers = new WeakMap<Unsent, () => void>();

function serveSocket(ctx: GatewayContext, ws: WebSocket, socket: Duplex, network: Network, caller: Caller): void {
  const key = caller.key.key;
  let unsent = unsentOf.get(ctx);
  if (unsent === undefined) unsentOf.set(ctx, (unsent = new UnsentBytes()));
  const budget = unsent;
  const me = budget.open(key);
  let cutOff: (() => void) | undefined;
  // Frames go to ws a slice at a time: a peer that does not read leaves texts here, not thousands of socket writes.
  const out = new SendQueue({
    send: (data, cb) => ws.send(data, cb),
    // ws writes each frame to this very socket: corked, a tick's frames leave in one write.
    cork: () => socket.cork(),
    uncork: () => socket.uncork(),
  });
  closers.set(me, () => {
    // Counted against the key in the usage book (devgate_getUsage's `closed`), with what it was being sent.
    ctx.policy.usage.close(key, ctx.policy.now(), 'slowReader', me.method);
    // What waits is dropped, so the close frame is queued behind at most SEND_IN_FLIGHT bytes, past the rest.
    out.close();
    ws.close(SLOW_READER.code, SLOW_READER.reason);
    cutOff ??= cutOffSlowReader(ws);
  });
  // Everything sent goes through here and is counted until written: past a budget the connection holding the most
  // is closed (this one, or another of the key or the gateway); others are unaffected. False: this one is gone.
  const send = (text: string, request?: string): boolean => {
    if (ws.readyState !== ws.OPEN || me.gone) return false;
    const bytes = Buffer.byteLength(text);
    me.method = frameMethod(text, request) ?? me.method;
    out.send(text, bytes, () => budget.written(me, bytes));
    for (const slow of budget.sent(me, bytes, ctx.limits())) closers.get(slow)?.();
    return !me.gone;
  };
  // A silent peer (no pong to the last ping) is closed; one that answers stays.
  let alive = true;
  ws.on('pong', () => (alive = true));
  const pinger = setInterval(() => {
    if (!alive) return ws.terminate();
    alive = false;
    if (ws.readyState === ws.OPEN) ws.ping();
  }, ctx.limits().wsPingIntervalMs);
  pinger.unref();
  // The connection's own view of the network (eth_subscribe); notifications go out as they come, in order.
  const conn = network.connect?.((text) => send(text), { key, maxSubscriptions: () => ctx.limits().maxSubscriptionsPerKey });
  const target: Pick<Network, 'name' | 'execute' | 'methods'> =
    conn === undefined ? network : { name: network.name, methods: network.methods, execute: (call, origin) => conn.execute(call, origin) };
  let mine = ctx.sockets.get(key);
  if (mine === undefined) ctx.sockets.set(key, (mine = new Set()));
  mine.add(ws);
  ws.on('close', () => {
    closed = true;
    clearInterval(pinger);
    cutOff?.();
    out.close();
    budget.gone(me);
    conn?.close();
    mine.delete(ws);
    if (mine.size === 0 && ctx.sockets.get(key) === mine) ctx.sockets.delete(key);
    // What was read before the close is still served, its answers going nowhere, as geth serves every request it read
    // before a connection ended: a script that sends five transactions and closes has sent five. The inbox is bounded
    // (INBOX_PAUSE_BYTES and one message), and a removed key's messages are refused one by one in `serve`.
    if (!draining && inbox.length > 0) void drain();
  });
  // Messages are served in arrival order, as many per turn as the shared slice allows (#25: one frame burst of 1,000
  // eth_subscribe, or 1,000 refused ones, was one turn of 60-150 ms); past INBOX_PAUSE_BYTES waiting the socket is
  // not read until they are served.
  const inbox: string[] = [];
  let inboxBytes = 0;
  let draining = false;
  let paused = false;
  let closed = false;
  const serve = (text: string): Promise<void> | undefined => {
    // The key as it is now: changed or removed through the admin interface since the upgrade.
    const current = ctx.policy.keys.lookup(key);
    if (current === undefined) return void ws.close(KEY_REMOVED.code, KEY_REMOVED.reason);
    // The caller object is made again only when the key store answers with another key object.
    if (current !== caller.key) caller = { ...caller, key: current };
    // Once closed, through the network itself: the connection's subscriptions are gone with it.
    return serveText(text, closed ? network : target, caller, ctx.policy, ctx.limits()).then((outcome) => {
      if (ws.readyState !== ws.OPEN) return;
      if (outcome.kind === 'refused') send(JSON.stringify(refusalBody(outcome.refusal, outcome.id, 'ws').body), text);
      else if (outcome.response !== undefined) {
        send(responseText(outcome.response), text);
        conn?.flush?.(outcome.response);
      }
    });
  };
  const drain = async (): Promise<void> => {
    draining = true;
    try {
      while (inbox.length > 0) {
        const pause = slicePause();
        if (pause !== undefined) await pause;
        const text = inbox.shift();
        if (text === undefined) break;
        inboxBytes -= text.length;
        if (paused && inboxBytes <= INBOX_PAUSE_BYTES / 2) {
          paused = false;
          ws.resume();
        }
        // Its work is counted in the slice: a call answered without waiting for I/O (most: eth_subscribe, reads of
        // the head) is waited for; one that waits (a send, a heavy call) goes on beside the next messages.
        // serveText answers every failure itself; should it ever reject, the rest of the inbox is still served.
        const served = serve(text)?.catch(() => undefined);
        if (served !== undefined) await Promise.race([served, ioTurn()]);
      }
    } finally {
      draining = false;
      sliceDone();
    }
  };
  ws.on('message', (data, isBinary) => {
    const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
    inbox.push(text);
    inboxBytes += text.length;
    if (!paused && inboxBytes > INBOX_PAUSE_BYTES) {
      paused = true;
      ws.pause();
    }
    if (!draining) void drain();
  });
  // ws closes the connection itself (1009 for an oversized message); nothing to add.
  ws.on('error', () => {});
}
