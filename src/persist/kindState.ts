/**
 * What a kind of network gives dump and load (src/persist/gatewayState.ts): each kind implements it beside its engine
 * (src/eth/kindState.ts, src/rollup/kind.ts) and its definition carries it (src/networkKind.ts). Persistence holds a
 * network's engine as `unknown`; only its kind's code knows its type.
 */
import type { AnvilState } from '../eth/engine/persist/dump/anvilState.js';

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

/** A kind's part with its engine and dump types erased, as a network carries it (gatewayState's StateNetwork). */
export const erasedState = <E, D>(state: KindState<E, D>): KindState => state as unknown as KindState;
