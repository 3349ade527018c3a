/** A network served by the gateway: its name, kind and chain id, and how it runs one JSON-RPC call. */
import type { Clock } from './clock.js';
import type { DataDir } from './persist/store.js';
import type { DumpDir } from './rollup/dumpFiles.js';
import type { GatewayLimits } from './gateway/limits.js';
import type { RpcCall, RpcResponse } from './rpc/envelope.js';
import type { MethodLookup } from './rpc/method.js';
import type { NetworkKind } from './kindNames.js';

export type { NetworkKind } from './kindNames.js';

/** What the gateway and `start()`'s handle show of a network. */
export interface NetworkInfo {
  readonly name: string;
  readonly kind: NetworkKind;
  /** The chain id: a decimal string for eth networks (`"1"`), the chain's own id for rollups (`"SN_MAIN"`). */
  readonly chainId: string;
}

/** What every network gets from the gateway that runs it. */
export interface NetworkEnv {
  /** devgate's clock: wall time, or a manual clock in tests. */
  readonly clock: Clock;
  /** The head block number of another network of the same gateway (a rollup's L1); undefined if none. */
  readonly l1BlockNumber?: (network: string) => Promise<bigint | undefined>;
  /** Where built chains are cached (see src/cache/chainCache.ts, rollupCache.ts); undefined: every chain is built. */
  readonly cacheDir?: string;
  /** Where chains are kept durably (`--data-dir`); undefined: in memory only. */
  readonly dataDir?: DataDir;
  /** How eth networks mine: automine (default), interval, or manual. */
  readonly mining?: { readonly automine?: boolean; readonly intervalMs?: number };
  /** Whether eth networks serve the dev methods (evm_, anvil_, hardhat_); default true. */
  readonly devMethods?: boolean;
  /** Accept legacy transactions without EIP-155 replay protection (geth refuses them over RPC). */
  readonly allowUnprotectedTxs?: boolean;
  /** The gateway's limits as they are now (admin can change them); eth networks read the mining, pool and filter budgets; undefined: the defaults. */
  readonly limits?: () => GatewayLimits;
  /** The fee cap of sent transactions in ether (geth's --rpc.txfeecap); 0 or undefined: none. */
  readonly txFeeCap?: number;
  /** Rollup networks: the directory devnet_dump / devnet_load may name files in (`--dump-dir`); undefined: paths are off. */
  readonly dumpDir?: DumpDir;
}

/** Who sends a call, as the gateway knows it (filters are kept per key, at most `maxFilters` per key and network). */
export interface CallOrigin {
  readonly key: string;
  readonly maxFilters: number;
}

export interface Network extends NetworkInfo {
  /** The engine behind the network (EthChain, RollupChain), for programmatic control. */
  readonly engine: unknown;
  /** The network's method table: the gateway's gates read each method's facts from it (src/rpc/method.ts). */
  readonly methods: MethodLookup;
  /** Runs one validated call; failures come back as error responses. `origin`: the gateway's caller, when there is one. */
  execute(call: RpcCall, origin?: CallOrigin): Promise<RpcResponse>;
  /**
   * A WebSocket connection's own view of the network, where it has one (eth networks: eth_subscribe); `push`
   * sends a notification on the connection (false: the connection is gone). Close it when the connection closes.
   */
  connect?(push: (text: string) => unknown, caller?: ConnectionCaller): NetworkConnection;
  /**
   * The network as it answers at a versioned path (`/v3/<key>/rpc/v0_9`: `version` is `0_9`), where it serves
   * several versions of its interface (rollup networks: Starknet JSON-RPC 0.8 and 0.9); undefined: not served.
   */
  atRpcVersion?(version: string): Network | undefined;
  /** Stops timers and frees what the network holds. */
  close(): Promise<void>;
}

/** Who holds a WebSocket connection (its key), and that key's subscription limit as it is now. */
export interface ConnectionCaller {
  readonly key: string;
  maxSubscriptions(): number;
}

/** What a WebSocket connection runs its calls through (see Network.connect). */
export interface NetworkConnection {
  execute(call: RpcCall, origin?: CallOrigin): Promise<RpcResponse>;
  /** Called once an answer has been sent: notifications its calls held back (a new subscription's catch-up) go out. */
  flush?(sent: RpcResponse | readonly RpcResponse[]): void;
  close(): void;
}
