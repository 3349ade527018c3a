/**
 * An eth network isolated per API key (`start({ isolate: 'key' })`, docs/isolate.md): each key but the shared one gets
 * its own copy of the network as started (copy.ts), made on its first request, with its own node, pool, filters,
 * subscriptions, snapshots, time and impersonation; the shared key (`devgate`, the bare address's) is served the
 * network itself. Copies are bounded: at most `maxCopies` live at once (past it a new key is refused -32005, naming
 * the limit), and a copy unused for `idleMs` (no request, no open WebSocket) is closed; its key's next request gets a
 * fresh copy of the start.
 */
import type { Clock } from '../../clock.js';
import { LimitExceeded } from '../../errors.js';
import type { CallOrigin, ConnectionCaller, Network, NetworkConnection } from '../../networkTypes.js';
import { failure, type RpcCall, type RpcResponse } from '../../rpc/envelope.js';
import { toRpcError } from '../../rpc/errors.js';
import type { EthNetwork } from '../network.js';
import type { OverlayNodes } from './overlayNodes.js';

/** The bounds of isolation; each has a `start()` option and a CLI flag (docs/isolate.md). */
export interface IsolateSettings {
  /** Most copies alive at once (default 64). */
  readonly maxCopies: number;
  /** A copy unused this long (no request, no open WebSocket) is closed (default 600,000 ms, 10 min). */
  readonly idleMs: number;
}

export const DEFAULT_ISOLATE: IsolateSettings = { maxCopies: 64, idleMs: 600_000 };

/** What the gateway reports of a live copy (`gw.isolated(network)`). */
export interface CopyInfo {
  readonly key: string;
  /** When it was made and last used, in devgate's clock (ms since the epoch). */
  readonly createdAt: number;
  readonly lastUsedAt: number;
  /** Milliseconds making it took (wall time). */
  readonly madeInMs: number;
  /** Blocks it mined beyond the start's head. */
  readonly blocks: bigint;
  /** Trie nodes it wrote and their bytes (keys and values): what its state costs beyond the shared start. */
  readonly ownNodes: number;
  readonly ownNodeBytes: number;
}

/** Makes a copy of the network as started. */
export type CopyMaker = () => Promise<{ network: EthNetwork; nodes: OverlayNodes }>;

interface Copy {
  readonly key: string;
  readonly ready: Promise<EthNetwork>;
  network: EthNetwork | undefined;
  nodes: OverlayNodes | undefined;
  readonly createdAt: number;
  lastUsedAt: number;
  madeInMs: number;
  /** Requests under way and WebSocket connections open: a copy with either is not idle. */
  busy: number;
  closed: boolean;
}

export class IsolatedEthNetwork implements Network {
  readonly kind = 'eth' as const;
  readonly name: string;
  private readonly copies = new Map<string, Copy>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    /** The shared network: the shared key's, and what copies are made from. */
    readonly base: EthNetwork,
    private readonly make: CopyMaker,
    private readonly settings: IsolateSettings,
    private readonly clock: Clock,
    /** The key served the shared network (the bare address's). */
    private readonly sharedKey: string,
    /** The start's head number: copies count their blocks from it. */
    private readonly startHead: bigint,
  ) {
    this.name = base.name;
    // Idle copies are freed even when no request comes to notice them (requests sweep too).
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, Math.min(60_000, settings.idleMs))).unref();
  }

  get chainId(): string {
    return this.base.chainId;
  }

  get engine(): EthNetwork['engine'] {
    return this.base.engine;
  }

  get methods(): EthNetwork['methods'] {
    return this.base.methods;
  }

  execute(call: RpcCall, origin?: CallOrigin): Promise<RpcResponse> {
    if (origin === undefined || origin.key === this.sharedKey) return this.base.execute(call, origin);
    let copy: Copy;
    try {
      copy = this.copyFor(origin.key);
    } catch (err) {
      return Promise.resolve(failure(call.id ?? null, toRpcError(err)));
    }
    return this.using(copy, (network) => network.execute(call, origin));
  }

  connect(push: (text: string) => unknown, caller?: ConnectionCaller): NetworkConnection {
    if (caller?.key === this.sharedKey) return this.base.connect(push, caller);
    // The in-process provider connects before it knows its key: the connection binds to a copy on its first call.
    // A WebSocket connection (with its caller) keeps its copy from being freed while open; a provider's does not.
    const pins = caller !== undefined;
    let copy: Copy | undefined;
    let conn: Promise<NetworkConnection> | undefined;
    let open: NetworkConnection | undefined;
    let closed = false;
    const release = () => {
      if (copy === undefined) return;
      if (pins) copy.busy--;
      const old = conn;
      void old?.then((c) => c.close());
      copy = undefined;
      conn = open = undefined;
    };
    const bind = (key: string): Copy => {
      const current = this.copyFor(key);
      if (current === copy) return current;
      // First call, or the copy was closed as idle: this connection moves to the key's copy now (its subscriptions end).
      release();
      copy = current;
      if (pins) current.busy++;
      conn = current.ready.then((n) => (open = n.connect(push, caller)));
      return current;
    };
    if (caller !== undefined) {
      try {
        bind(caller.key);
      } catch {
        // At the cap: each call answers why (below).
      }
    }
    return {
      execute: (call, origin) => {
        const key = origin?.key ?? caller?.key;
        if (closed) return Promise.resolve(failure(call.id ?? null, toRpcError(new Error('connection closed'))));
        if (key === undefined || key === this.sharedKey) return this.base.execute(call, origin);
        try {
          bind(key);
        } catch (err) {
          return Promise.resolve(failure(call.id ?? null, toRpcError(err)));
        }
        const pending = conn!;
        return this.using(copy!, async () => (await pending).execute(call, origin));
      },
      flush: (sent) => open?.flush?.(sent),
      close: () => {
        closed = true;
        release();
      },
    };
  }

  /** The live copies, newest use first: key, age, blocks mined and the bytes of trie nodes each wrote. */
  info(): CopyInfo[] {
    return [...this.copies.values()]
      .filter((c) => c.network !== undefined)
      .sort((a, b) => b.lastUsedAt - a.lastUsedAt)
      .map((c) => {
        const chain = c.network!.engine.chain;
        return {
          key: c.key,
          createdAt: c.createdAt,
          lastUsedAt: c.lastUsedAt,
          madeInMs: c.madeInMs,
          blocks: chain.head().number - this.startHead,
          ownNodes: c.nodes?.ownNodes ?? 0,
          ownNodeBytes: c.nodes?.ownBytes ?? 0,
        };
      });
  }

  /** The copy of `key` as a network (made now if it has none), for `gw.eth(network, key)`. */
  async copyOf(key: string): Promise<EthNetwork> {
    if (key === this.sharedKey) return this.base;
    const copy = this.copyFor(key);
    copy.lastUsedAt = this.clock.now();
    return copy.ready;
  }

  /** Closes every copy (the shared network is closed by its owner). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.copies.values()];
    this.copies.clear();
    await Promise.all(all.map((c) => this.closeCopy(c)));
  }

  /** The key's copy, made now if it has none; throws LimitExceeded at the cap. */
  private copyFor(key: string): Copy {
    const found = this.copies.get(key);
    if (found !== undefined) return found;
    this.sweep();
    if (this.copies.size >= this.settings.maxCopies) {
      const { maxCopies, idleMs } = this.settings;
      throw new LimitExceeded(
        `isolate: ${this.copies.size} chain copies are live on network ${this.name}, the most allowed (maxCopies ${maxCopies}); ` +
          `a copy unused for ${Math.round(idleMs / 1000)} s is freed, or start devgate with a higher isolate.maxCopies (--isolate-max)`,
      );
    }
    const began = performance.now();
    const now = this.clock.now();
    const copy: Copy = {
      key,
      ready: undefined as unknown as Promise<EthNetwork>,
      network: undefined,
      nodes: undefined,
      createdAt: now,
      lastUsedAt: now,
      madeInMs: 0,
      busy: 0,
      closed: false,
    };
    (copy as { ready: Promise<EthNetwork> }).ready = this.make().then(
      ({ network, nodes }) => {
        copy.madeInMs = performance.now() - began;
        copy.network = network;
        copy.nodes = nodes;
        // Closed while being made (the gateway stopped): freed at once.
        if (copy.closed) void network.close();
        return network;
      },
      (err: unknown) => {
        if (this.copies.get(key) === copy) this.copies.delete(key);
        throw err;
      },
    );
    this.copies.set(key, copy);
    return copy;
  }

  /** Runs `fn` on the copy once made, keeping it from being freed meanwhile. */
  private async using(copy: Copy, fn: (network: EthNetwork) => Promise<RpcResponse>): Promise<RpcResponse> {
    copy.busy++;
    copy.lastUsedAt = this.clock.now();
    try {
      return await fn(await copy.ready);
    } finally {
      copy.busy--;
      copy.lastUsedAt = this.clock.now();
    }
  }

  /** Closes the copies unused for `idleMs` (no request under way, no WebSocket open). */
  private sweep(): void {
    const now = this.clock.now();
    for (const copy of [...this.copies.values()]) {
      if (copy.busy > 0 || now - copy.lastUsedAt < this.settings.idleMs) continue;
      this.copies.delete(copy.key);
      void this.closeCopy(copy);
    }
  }

  private async closeCopy(copy: Copy): Promise<void> {
    copy.closed = true;
    await copy.network?.close();
  }
}
