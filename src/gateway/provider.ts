/**
 * The in-process provider (`gw.provider(network, key)`): an EIP-1193 object that viem's `custom()` transport and
 * ethers' `BrowserProvider` take, with no socket. Each request goes through what a WebSocket message goes through
 * (the key's policy, then serveText: allowlists, dev-method rules, heavy slots, credits) and answers the same JSON, so
 * a test suite meets the same gateway as over HTTP, less the HTTP. Subscriptions (eth_subscribe, the rollup's) arrive
 * as EIP-1193 `message` events, `{ type: 'eth_subscription', data: { subscription, result } }`.
 */
import { EventEmitter } from 'node:events';
import { KINDS } from '../kinds.js';
import type { Network, NetworkConnection } from '../networkTypes.js';
import { responseText } from '../rpc/envelope.js';
import { serveText } from './answer.js';
import type { GatewayContext } from './context.js';
import type { Caller } from './policy/index.js';
import { FORBIDDEN_TEXT, refusalBody } from './replies.js';
import { KEY_PATTERN } from './route.js';

/** An EIP-1193 request's arguments. */
export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | object;
}

/** The error an EIP-1193 request rejects with: the JSON-RPC error's code, message and data. */
export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProviderRpcError';
  }
}

/** What `gw.provider()` answers: EIP-1193's request and events. */
export interface DevgateProvider {
  request(args: RequestArguments): Promise<unknown>;
  on(event: string, listener: (...args: any[]) => void): this;
  once(event: string, listener: (...args: any[]) => void): this;
  removeListener(event: string, listener: (...args: any[]) => void): this;
  off(event: string, listener: (...args: any[]) => void): this;
  /** Ends the provider's subscriptions and filters' connection (as closing a WebSocket does); later requests still answer. */
  disconnect(): void;
}

/** Options of `gw.provider()`: the key's secret, for a key that requires one (as HTTP Basic carries it). */
export interface ProviderOptions {
  readonly secret?: string;
}

class InProcessProvider extends EventEmitter implements DevgateProvider {
  private nextId = 1;
  private conn: NetworkConnection | undefined;

  constructor(
    private readonly ctx: GatewayContext,
    private readonly network: Network,
    private readonly key: string,
    private readonly authorization: string | undefined,
  ) {
    super();
    const chainId = KINDS[network.kind].connectChainId(network.chainId);
    // EIP-1193: `connect` once the provider can serve; listeners added right after creation hear it.
    setImmediate(() => this.emit('connect', { chainId }));
  }

  async request(args: RequestArguments): Promise<unknown> {
    if (args === null || typeof args !== 'object' || typeof args.method !== 'string') {
      throw new ProviderRpcError(-32600, 'invalid request: expected { method, params }');
    }
    const caller = this.caller();
    const id = this.nextId++;
    const text = JSON.stringify({ jsonrpc: '2.0', id, method: args.method, params: args.params ?? [] });
    const conn = (this.conn ??= this.connect());
    const target = { name: this.network.name, methods: this.network.methods, execute: conn.execute.bind(conn) };
    const outcome = await serveText(text, target, caller, this.ctx.policy, this.ctx.limits());
    if (outcome.kind === 'refused') {
      const { error } = refusalBody(outcome.refusal, id, 'ws').body as { error: { code: number; message: string; data?: unknown } };
      throw new ProviderRpcError(error.code, error.message, error.data);
    }
    const response = outcome.response;
    if (response === undefined || Array.isArray(response)) throw new ProviderRpcError(-32603, 'internal error: no answer');
    // The wire text, parsed: the same JSON an HTTP client reads (formatted results may be pre-serialized text).
    const body = JSON.parse(responseText(response)) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    // Notifications a new subscription held back go out after its answer has been seen.
    setImmediate(() => conn.flush?.(response));
    if (body.error !== undefined) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data);
    return body.result;
  }

  disconnect(): void {
    this.conn?.close();
    this.conn = undefined;
  }

  /** The key as the policy knows it now (changed or removed through the admin interface since the last request). */
  private caller(): Caller {
    const auth = this.ctx.policy.authenticate(this.key, this.authorization);
    if (!auth.ok) throw new ProviderRpcError(-32001, auth.reason === 'unknown-key' ? 'invalid project id' : 'invalid project id or project secret');
    // As HTTP without Origin and User-Agent headers: a key with an origin or user-agent allowlist needs its secret.
    if (!this.ctx.policy.headersAllowed(auth, {})) throw new ProviderRpcError(-32002, FORBIDDEN_TEXT);
    if (this.ctx.policy.overDailyQuota(auth.key)) throw new ProviderRpcError(-32005, 'daily request count exceeded, request rate limited');
    return { ...auth, failover: false };
  }

  private connect(): NetworkConnection {
    const push = (text: string) => {
      const message = JSON.parse(text) as { method?: string; params?: unknown };
      if (typeof message.method === 'string') this.emit('message', { type: message.method, data: message.params });
    };
    return this.network.connect?.(push) ?? { execute: (call, origin) => this.network.execute(call, origin), close: () => {} };
  }
}

/** The in-process provider of `network` for `key`. */
export function createProvider(ctx: GatewayContext, network: Network, key: string, options: ProviderOptions = {}): DevgateProvider {
  if (!KEY_PATTERN.test(key)) throw new TypeError(`invalid key ${JSON.stringify(key)}: a key is 1 to 64 characters from [A-Za-z0-9_-]`);
  const authorization = options.secret === undefined ? undefined : `Basic ${Buffer.from(`:${options.secret}`).toString('base64')}`;
  return new InProcessProvider(ctx, network, key, authorization);
}
