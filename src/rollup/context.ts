/** What every rollup_ method handler gets: the network's engine and its settings. */
import type { DumpDir } from './dumpFiles.js';
import type { RollupChain } from './engine/chain.js';

/** The Starknet JSON-RPC versions the `starknet_` family speaks (see docs/starknet.md). */
export type StarknetRpcVersion = '0.8' | '0.9';

export interface RollupContext {
  readonly chain: RollupChain;
  readonly networkName: string;
  /** The Starknet JSON-RPC version asked for (the path `/rpc/v0_9`); absent: 0.8, the unversioned path's. */
  readonly rpcVersion?: StarknetRpcVersion;
  /** Where devnet_dump / devnet_load may name files (`--dump-dir`); undefined: paths are off. */
  readonly dumpDir?: DumpDir;
}

/** Whether a context answers Starknet JSON-RPC 0.9 (PRE_CONFIRMED block and statuses, `pre_confirmed` tag). */
export const isV09 = (ctx: RollupContext): boolean => ctx.rpcVersion === '0.9';
