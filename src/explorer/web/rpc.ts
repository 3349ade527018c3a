/**
 * The page's only way to the chains: JSON-RPC to its own origin (`/<network>/v3/<key>`) and the gateway's
 * WebSocket (`/<network>/ws/v3/<key>`), as the bare-address key `devgate` (or a key typed in, kept for the tab).
 */
export interface NetworkMeta {
  readonly name: string;
  readonly kind: 'eth' | 'rollup';
  readonly chainId: string;
  readonly l1?: string;
}

export interface Meta {
  readonly networks: readonly NetworkMeta[];
  readonly bare: string | null;
  readonly key: string;
  readonly abis: readonly { name: string; abi: readonly unknown[] }[];
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

let key = '';

export function setKey(k: string): void {
  key = k;
}

export function apiKey(): string {
  return key;
}

let nextId = 1;

/** The newest head each network's socket told of: a redraw asks for the blocks below it in one round trip. */
export const knownHeads = new Map<string, number>();

/** One call; its error as an RpcError (the status and text when the gateway refused the request). */
export async function call<T = any>(network: string, method: string, params: unknown = []): Promise<T> {
  const [r] = await batch(network, [[method, params]]);
  if (r!.error !== undefined) throw new RpcError(r!.error.code, r!.error.message);
  return r!.result as T;
}

/** Several calls in one request; each answer in order, with its result or error. */
export async function batch(
  network: string,
  calls: readonly (readonly [string, unknown])[],
): Promise<{ result?: any; error?: { code: number; message: string } }[]> {
  if (calls.length === 0) return [];
  const body = calls.map(([method, params]) => ({ jsonrpc: '2.0', id: nextId++, method, params }));
  const res = await fetch(`/${network}/v3/${encodeURIComponent(key)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status === 401) throw new RpcError(401, `the gateway refused the key ${JSON.stringify(key)}: ${text.trim()}`);
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RpcError(res.status, text.trim());
  }
  if (!Array.isArray(json)) throw new RpcError(json?.error?.code ?? res.status, json?.error?.message ?? text);
  const byId = new Map(json.map((r: any) => [r.id, r]));
  return body.map((c) => (byId.get(c.id) as any) ?? { error: { code: -32603, message: 'no answer' } });
}

/** A network's WebSocket with its subscriptions; `onEvent` gets every notification. Reconnects when closed. */
export class Live {
  private ws: WebSocket | undefined;
  private closed = false;
  /** Calls added with send(), made again on every (re)connection. */
  private readonly added: [string, unknown][] = [];

  constructor(
    private readonly network: NetworkMeta,
    private readonly subscriptions: readonly (readonly [string, unknown])[],
    private readonly onEvent: (network: string, method: string, result: unknown) => void,
    private readonly onState: (network: string, open: boolean) => void,
  ) {
    this.open();
  }

  private open(): void {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/${this.network.name}/ws/v3/${encodeURIComponent(key)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.onState(this.network.name, true);
      for (const [method, params] of [...this.subscriptions, ...this.added]) ws.send(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }));
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(String(e.data));
      if (msg.method !== undefined) this.onEvent(this.network.name, msg.method, msg.params?.result);
    };
    ws.onclose = () => {
      this.onState(this.network.name, false);
      if (!this.closed) setTimeout(() => this.open(), 1000);
    };
  }

  /** Sends a call on the socket now if open, and on every connection (a subscription added later); its answer is not awaited. */
  send(method: string, params: unknown): void {
    this.added.push([method, params]);
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }));
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
  }
}
