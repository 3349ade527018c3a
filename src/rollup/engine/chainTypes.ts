/** The rollup engine's configuration and the shapes of its contents (RollupChain keeps them; snapshots and caches copy them). */
import type { DeclaredClass, ExecutedTx, Felt, GasPrices, L1AcceptanceRule, RollupState, SealedBlock } from './types.js';

export interface RollupConfig {
  /** The chain id as a felt (the short string `SN_MAIN`). */
  readonly chainId: Felt;
  readonly starknetVersion: string;
  readonly sequencerAddress: Felt;
  readonly gasPrices: GasPrices;
  /** L1 data gas and L2 gas prices, and the DA mode: shown in starknet_ headers (the fee model uses gasPrices). */
  readonly dataGasPrices: GasPrices;
  readonly l2GasPrices: GasPrices;
  readonly l1DaMode: 'BLOB' | 'CALLDATA';
  /** Fee-token contract addresses: ETH holds balances in wei, STRK in fri (starknet_call reads them). */
  readonly feeTokens: { readonly eth: Felt; readonly strk: Felt };
  /** Classes declared at genesis (the seed's), by class hash. */
  readonly classes: ReadonlyMap<Felt, DeclaredClass>;
  readonly l1Acceptance: L1AcceptanceRule;
  /** Seal the pending block every this many ms of the clock; undefined: on demand only. */
  readonly blockTimeMs?: number;
}

/** Most blocks one `sync()` seals to catch up with the clock; older missed intervals are skipped. */
export const MAX_CATCH_UP_BLOCKS = 100;

/** Where a transaction is: in a sealed block (on the chain or rejected), or pending. */
export type TxLocation = { readonly block: SealedBlock; readonly index: number } | { readonly pendingIndex: number };

/** A chain's contents at one moment (RollupChain.mark); the indexes as positions in their journals, or copied. */
export type RollupMark = Omit<RollupChainParts, 'nextSealMs' | 'l1Head' | 'byHash' | 'txs' | 'gasPrices' | 'nextGasPrices'> & {
  readonly config: RollupConfig;
  readonly nextGasPrices?: GasPrices;
} & (
    | { readonly journal: { readonly byHash: number; readonly txs: number } }
    | { readonly copies: { readonly byHash: ReadonlyMap<Felt, SealedBlock>; readonly txs: ReadonlyMap<Felt, TxLocation> } }
  );

/** Everything a chain is rebuilt from without hashing or checking anything again (see src/rollup/snapshot.ts). */
export interface RollupChainParts {
  /** The chain, oldest first. */
  readonly blocks: readonly SealedBlock[];
  /** Every sealed block by hash: the chain's and rejected ones. */
  readonly byHash: ReadonlyMap<Felt, SealedBlock>;
  readonly txs: ReadonlyMap<Felt, TxLocation>;
  readonly pendingTxs: readonly ExecutedTx[];
  readonly pendingState: RollupState;
  /** Chain time (s) at the clock reading `anchorMs`. */
  readonly anchorSec: bigint;
  /** Clock readings (ms): the time anchor and the next interval seal; blocks' `sealedAtMs` are readings too. */
  readonly anchorMs: number;
  readonly nextSealMs: number;
  readonly l1Head?: bigint;
  /** The L1 gas prices blocks are sealed with now, and those set for the blocks after the pending one (devnet_setGasPrice); absent: the seed's. */
  readonly gasPrices?: GasPrices;
  readonly nextGasPrices?: GasPrices;
}

/** The larger of two bigints. */
export const maxBig = (a: bigint, b: bigint): bigint => (a > b ? a : b);
