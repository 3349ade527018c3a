/**
 * The page's only way to the chains: its own origin's read-only JSON-RPC (`POST /explorer/api/rpc/<network>`) and
 * live stream (`GET /explorer/api/live`, server-sent events), which the server runs through the gateway's policy
 * (src/explorer/reads.ts says as whom). The first view's answers come in the page itself (preload()).
 */
import { type Calls, type FirstData, served } from './overview.js';

export interface NetworkMeta {
  readonly name: string;
  readonly kind: 'eth' | 'rollup';
  readonly chainId: string;
  readonly l1?: string;
  /** A rollup network's method prefix (its seed's `prefix`: `starknet` unless it says); batch() sends its methods so. */
  readonly prefix?: string;
}

export interface Meta {
  readonly networks: readonly NetworkMeta[];
  readonly bare: string | null;
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

let nextId = 1;

/** Each rollup network's method prefix, from the meta (learnPrefixes). */
const prefixes = new Map<string, string>();

export function learnPrefixes(networks: readonly NetworkMeta[]): void {
  for (const n of networks) if (n.prefix !== undefined) prefixes.set(n.name, n.prefix);
}

/** The newest head each network's socket told of: a redraw asks for the blocks below it in one round trip. */
export const knownHeads = new Map<string, number>();

/** One call; its error as an RpcError (the status and text when the gateway refused the request). */
export async function call<T = any>(network: string, method: string, params: unknown = []): Promise<T> {
  const [r] = await batch(network, [[method, params]]);
  if (r!.error !== undefined) throw new RpcError(r!.error.code, r!.error.message);
  return r!.result as T;
}

type Answer = { result?: any; error?: { code: number; message: string } };

/** Answers the server put in the page, by network and calls: each is used once, by the first identical batch. */
const preloaded = new Map<string, Answer[]>();

/** Takes the first view's data from the page: each network's head, and the answers of its overview's reads. */
export function preload(first: FirstData): void {
  for (const [network, { head, calls, answers }] of Object.entries(first)) {
    knownHeads.set(network, head);
    preloaded.set(`${network} ${JSON.stringify(calls)}`, answers as Answer[]);
  }
}

/** Forgets what preload() kept and the first view did not use: those answers grow old. */
export function dropPreloaded(): void {
  preloaded.clear();
}

/**
 * Several calls in one request; each answer in order, with its result or error. `stream`: the live stream's id.
 * A rollup's calls are named by their spec names (`starknet_X`) and sent under the network's own prefix.
 */
export async function batch(network: string, calls: Readonly<Calls>, stream?: string): Promise<Answer[]> {
  if (calls.length === 0) return [];
  const mark = `${network} ${JSON.stringify(calls)}`;
  const ready = stream === undefined ? preloaded.get(mark) : undefined;
  if (ready !== undefined) {
    preloaded.delete(mark);
    return ready;
  }
  const prefix = prefixes.get(network);
  const body = calls.map(([method, params]) => ({ jsonrpc: '2.0', id: nextId++, method: served(method, prefix), params }));
  const res = await fetch(`/explorer/api/rpc/${encodeURIComponent(network)}${stream === undefined ? '' : `?stream=${stream}`}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status === 401 || res.status === 403) throw new RpcError(res.status, `the explorer may not read: ${text.trim()}`);
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

/**
 * The live stream: one server-sent event stream for every network. Once it says hello (its id), each network's
 * subscriptions are sent on it; `onEvent` gets every notification, `onState` how many networks are subscribed.
 * EventSource reconnects by itself; every subscription is made again on the new stream.
 */
export class Live {
  private id: string | undefined;
  /** Each network's subscriptions, made on every stream. */
  private readonly subscriptions = new Map<string, Calls>();
  private readonly ready = new Set<string>();

  constructor(
    networks: readonly { name: string; subscriptions: Calls }[],
    private readonly onEvent: (network: string, method: string, result: unknown) => void,
    private readonly onState: (subscribed: number) => void,
  ) {
    for (const n of networks) this.subscriptions.set(n.name, [...n.subscriptions]);
    const source = new EventSource('/explorer/api/live');
    source.addEventListener('hello', (e) => {
      this.id = (e as MessageEvent).data as string;
      this.ready.clear();
      for (const [network, calls] of this.subscriptions) void this.subscribe(network, calls, true);
    });
    source.addEventListener('net', (e) => {
      const data = (e as MessageEvent).data as string;
      const space = data.indexOf(' ');
      const msg = JSON.parse(data.slice(space + 1));
      if (msg.method !== undefined) this.onEvent(data.slice(0, space), msg.method, msg.params?.result);
    });
    source.onerror = () => {
      this.id = undefined;
      this.ready.clear();
      this.onState(0);
    };
  }

  private async subscribe(network: string, calls: Calls, all: boolean): Promise<void> {
    const id = this.id;
    if (id === undefined || calls.length === 0) return;
    const answers = await batch(network, calls, id).catch(() => undefined);
    // In place only when every subscription was made (a refused one, e.g. a method the network does not serve, is not).
    if (answers === undefined || answers.some((a) => a.error !== undefined)) return;
    if (all && id === this.id) {
      this.ready.add(network);
      this.onState(this.ready.size);
    }
  }

  /** Subscribes on the stream now if open, and on every later stream (a subscription added later); its answer is not awaited. */
  send(network: string, method: string, params: unknown): void {
    this.subscriptions.get(network)?.push([method, params]);
    void this.subscribe(network, [[method, params]], false);
  }
}
