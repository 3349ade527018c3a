/**
 * What a kind of network (eth, rollup) gives the gateway-wide code, so that code asks the kind instead of branching on
 * `kind === 'eth'`: each kind implements this in its own folder (src/eth/kind.ts, src/rollup/kind.ts) and is registered
 * once (src/kinds.ts). The gateway holds a network's engine as `unknown`; only its kind's code knows its type.
 * How to add a kind: docs/ARCHITECTURE.md, "Network kinds".
 */
import type { CopyInfo } from './eth/isolate/isolated.js';
import type { NodeLog } from './log/nodeLog.js';
import type { Network, NetworkEnv, NetworkKind } from './networkTypes.js';
import type { KindState } from './persist/kindState.js';
import type { LoadedSeed, Seed } from './seed/load.js';

export type { KindState } from './persist/kindState.js';

/** The bounds of per-key isolation (`isolate`, docs/isolate.md). */
export interface IsolateBounds {
  readonly maxCopies: number;
  readonly idleMs: number;
}

/**
 * A kind of network as the gateway-wide code sees it: `E` its engine, `D` a dump read against that engine, `S` its
 * seed, `H` its `start()` handle. The optional facets are what only some kinds have; a kind without one is left out of what needs it.
 */
export interface NetworkKindDef<E = unknown, D = unknown, S extends Seed = Seed, H = unknown> {
  readonly kind: NetworkKind;
  /** How messages name a network of this kind: `an eth network`, `a rollup network`. */
  readonly title: string;
  /** The chain id as an EIP-1193 provider's `connect` event gives it (eth: `0x` hex; a rollup's own id as it is). */
  connectChainId(chainId: string): string;
  /** Whether the bare address (anvil's) serves the first network of this kind when the `bare` option names none. */
  readonly bareByDefault: boolean;
  /** Dump and load: the gateway's state file, anvil_dumpState/loadState, devgate's state sections. */
  readonly state: KindState<E, D>;
  /** Builds the network a seed of this kind describes (from a data directory, the chain cache or the seed). */
  create(loaded: LoadedSeed & { readonly seed: S }, env: NetworkEnv): Promise<Network>;
  /** start()'s handle of a network of this kind (`gw.eth(name)`, `gw.rollup(name)`: src/eth/handle.ts, src/rollup/handle.ts). */
  handle(name: string, engine: E): H;
  /** The `@label` contracts a seed of this kind deployed, label -> address (`gw.contracts(name)`, the banner). */
  readonly contracts?: (seed: S, engine: E) => Readonly<Record<string, string>>;
  /**
   * What the CLI prints of a network of this kind, from its handle (`gw.<kind>(name)`): a line after the addresses
   * (eth: its mining mode), and its banner lines (eth: accounts with balances and keys, `@label` contracts).
   */
  readonly cli?: {
    status(handle: H): string;
    banner(handle: H, labels: Readonly<Record<string, string>>): Promise<string[]>;
  };
  /** Puts a network of this kind under the node log (`log`): its blocks, transactions and console.log lines. */
  readonly watchLog?: (log: NodeLog, network: Network, label: string | undefined) => Promise<void>;
  /** Bounds the bytes of one trace (`maxTraceBytes`), where the kind traces. */
  readonly traceBudget?: (engine: E, maxBytes: number) => void;
  /** The head block number of a network of this kind, where it can be another network's L1 (a rollup's `l1Acceptance: blocks`). */
  readonly l1Head?: (engine: E) => bigint;
  /** The network a seed of this kind reads its L1 head from, if any. */
  readonly l1Of?: (seed: S) => string | undefined;
  /** The prefix a seed of this kind serves its Starknet-named methods under (`<prefix>_blockNumber`), where it renames them. */
  readonly methodPrefix?: (seed: S) => string;
  /**
   * Per-key isolation (docs/isolate.md), where the kind has it: why a seed's network cannot be isolated (undefined: it
   * can), and the network served isolated from its state now. Kinds without it stay shared by every key.
   */
  readonly isolate?: {
    refusal(seed: S): string | undefined;
    serve(network: Network, seed: S, env: NetworkEnv, bounds: IsolateBounds, sharedKey: string): Promise<Network>;
    /** The live copies of a served network (`gw.isolated(name)`): key, cost, ...; empty for a network not isolated. */
    copies(served: Network): readonly CopyInfo[];
  };
}

/** A kind's definition with its engine, dump and seed types erased, for the registry (src/kinds.ts). */
export const erased = <E, D, S extends Seed, H>(def: NetworkKindDef<E, D, S, H>): NetworkKindDef => def as unknown as NetworkKindDef;
