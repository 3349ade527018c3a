/**
 * What a kind of network (eth, rollup) gives the gateway-wide code, so that code asks the kind instead of branching on
 * `kind === 'eth'`: each kind implements this in its own folder (src/eth/kind.ts, src/rollup/kind.ts) and is registered
 * once (src/kinds.ts). The gateway holds a network's engine as `unknown`; only its kind's code knows its type.
 *
 * Facets so far: `state` (dump and load: the gateway's state file, anvil_dumpState/loadState, devnet_dump's
 * sections). Still branching on the kind elsewhere, and the next facets: building a network (src/network.ts), the
 * `start()` handle (src/index.ts, src/handles.ts), subscriptions (src/subscriptions/), the in-process provider's
 * chain id (src/gateway/provider.ts), the CLI's banner (src/cli.ts), the explorer's pages (src/explorer/web/).
 */
import type { AnvilState } from './eth/engine/persist/dump/anvilState.js';
import type { NetworkKind } from './networkTypes.js';

/**
 * One kind's part in dump and load, for a network whose engine is `E`; `D` is a dump read and checked against that
 * engine. Decoding changes nothing (a load checks every section before any network changes).
 */
export interface KindState<E = unknown, D = unknown> {
  /** The network's section of a state file (taken on its writer where it has one: no write is half seen). */
  dump(engine: E, network: string): Promise<Uint8Array>;
  /** A text that changes whenever the network's section would. */
  fingerprint(engine: E): string;
  /** Reads a section for this engine; throws DumpError naming the problem, changing nothing. */
  decode(engine: E, bytes: Uint8Array, network: string): D;
  /** Puts a decoded dump in place; says what it loaded (the report line after `name: `). */
  load(engine: E, dump: D): Promise<string>;
  /** Takes anvil's JSON state (accounts into head's state), where the kind can. */
  readonly anvil?: (engine: E, state: AnvilState) => Promise<void>;
}

/** A kind of network as the gateway-wide code sees it. */
export interface NetworkKindDef<E = unknown, D = unknown> {
  readonly kind: NetworkKind;
  readonly state: KindState<E, D>;
}

/** A kind's definition with its engine and dump types erased, for the registry (src/kinds.ts). */
export const erased = <E, D>(def: NetworkKindDef<E, D>): NetworkKindDef => def as unknown as NetworkKindDef;
