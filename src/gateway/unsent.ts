/**
 * Unsent WebSocket bytes: what the gateway holds of answers and notifications its peers have not taken yet, per
 * connection, per key and in all (GatewayLimits: maxBufferedBytes, maxBufferedBytesPerKey, maxBufferedBytesTotal).
 * A frame counts from the moment it is handed to ws until its socket has written it to the kernel (ws.send's
 * callback): the serialized frames queued in ws's and the socket's buffers, which is what a peer that never reads
 * makes the process hold. Past a budget the connection holding the most (of the connection, of the key, of the
 * gateway) is closed as geth closes a subscriber it cannot keep up with; its bytes stop counting once it is closing.
 */

/** One connection's part. */
export interface Unsent {
  readonly key: string;
  bytes: number;
  /** Closing or closed: no longer counted, and chosen no more. */
  gone: boolean;
  /** The method of the last frame handed to the socket (a notification's, or the answered request's), if known. */
  method?: string;
}

export interface UnsentLimits {
  readonly maxBufferedBytes: number;
  readonly maxBufferedBytesPerKey: number;
  readonly maxBufferedBytesTotal: number;
}

export class UnsentBytes {
  private readonly byKey = new Map<string, { bytes: number; conns: Set<Unsent> }>();
  private total = 0;

  open(key: string): Unsent {
    const u: Unsent = { key, bytes: 0, gone: false };
    let held = this.byKey.get(key);
    if (held === undefined) this.byKey.set(key, (held = { bytes: 0, conns: new Set() }));
    held.conns.add(u);
    return u;
  }

  /** A frame of `bytes` handed to the socket; answers the connections to close (those holding the most past a budget). */
  sent(u: Unsent, bytes: number, limits: UnsentLimits): Unsent[] {
    if (u.gone) return [];
    this.move(u, bytes);
    const over: Unsent[] = [];
    if (u.bytes > limits.maxBufferedBytes) over.push(this.gone(u));
    const held = this.byKey.get(u.key);
    while (held !== undefined && held.conns.size > 0 && held.bytes > limits.maxBufferedBytesPerKey) over.push(this.gone(most(held.conns)!));
    while (this.total > limits.maxBufferedBytesTotal) {
      let victim: Unsent | undefined;
      for (const h of this.byKey.values()) {
        const m = most(h.conns);
        if (m !== undefined && (victim === undefined || m.bytes > victim.bytes)) victim = m;
      }
      if (victim === undefined) break;
      over.push(this.gone(victim));
    }
    return over;
  }

  /** A frame of `bytes` was written (or dropped with its socket). */
  written(u: Unsent, bytes: number): void {
    if (!u.gone) this.move(u, -bytes);
  }

  /** The connection is closing or closed: its bytes count no more. */
  gone(u: Unsent): Unsent {
    if (u.gone) return u;
    this.move(u, -u.bytes);
    u.gone = true;
    const held = this.byKey.get(u.key);
    held?.conns.delete(u);
    if (held?.conns.size === 0) this.byKey.delete(u.key);
    return u;
  }

  /** Unsent bytes of one key, or of all. */
  bytesOf(key?: string): number {
    return key === undefined ? this.total : (this.byKey.get(key)?.bytes ?? 0);
  }

  private move(u: Unsent, bytes: number): void {
    u.bytes += bytes;
    this.total += bytes;
    const held = this.byKey.get(u.key);
    if (held !== undefined) held.bytes += bytes;
  }
}

const NOTIFICATION = '{"jsonrpc":"2.0","method":"';
const METHOD = /"method"\s*:\s*"([A-Za-z0-9_]{1,64})"/;

/**
 * The method a frame is about, for the usage book's closures: a notification's own (`eth_subscription`, as devgate
 * writes it), else the first `"method"` of the request it answers (looked for in its first 1 KB only); undefined
 * when neither names one.
 */
export function frameMethod(frame: string, request?: string): string | undefined {
  if (frame.startsWith(NOTIFICATION)) {
    const end = frame.indexOf('"', NOTIFICATION.length);
    if (end > NOTIFICATION.length && end - NOTIFICATION.length <= 64) return frame.slice(NOTIFICATION.length, end);
  }
  return request === undefined ? undefined : METHOD.exec(request.slice(0, 1024))?.[1];
}

/** The connection holding the most (the first of equals). */
function most(conns: Iterable<Unsent>): Unsent | undefined {
  let best: Unsent | undefined;
  for (const u of conns) if (best === undefined || u.bytes > best.bytes) best = u;
  return best;
}
