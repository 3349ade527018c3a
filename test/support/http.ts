/** Small wire-level helpers for tests: raw JSON-RPC over HTTP and WebSocket. */
import WebSocket from 'ws';

export interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** POSTs a body (an object is JSON-encoded, a string is sent as is) and reads the reply. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpReply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Calls one method and gives the JSON-RPC response object. */
export async function call(url: string, method: string, params: unknown = [], id: unknown = 1): Promise<any> {
  return (await post(url, { jsonrpc: '2.0', id, method, params })).json;
}

/** Calls one method and gives its result; an error response throws, naming the method. */
export async function result(url: string, method: string, params: unknown = []): Promise<any> {
  const res = await call(url, method, params);
  if (res.error) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
  return res.result;
}

/** An open WebSocket that answers each sent text with the next message. */
export class WsClient {
  private queue: string[] = [];
  private waiters: ((msg: string) => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const msg = data.toString();
      const w = this.waiters.shift();
      if (w) w(msg);
      else this.queue.push(msg);
    });
  }

  static open(url: string): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('error', reject);
    });
  }

  /** The next message received, parsed as JSON. */
  next(timeoutMs = 5000): Promise<any> {
    const m = this.queue.shift();
    if (m !== undefined) return Promise.resolve(JSON.parse(m));
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no WebSocket message within ' + timeoutMs + ' ms')), timeoutMs);
      this.waiters.push((msg) => {
        clearTimeout(t);
        resolve(JSON.parse(msg));
      });
    });
  }

  /** Sends a text (objects are JSON-encoded) and waits for the answer. */
  async request(body: unknown): Promise<any> {
    this.socket.send(typeof body === 'string' ? body : JSON.stringify(body));
    return this.next();
  }

  close(): void {
    this.socket.close();
  }
}

/** Whether the socket closes within `ms`, and with which code. */
export function closed(socket: WebSocket, ms = 5000): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve('open'), ms);
    socket.once('close', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}
