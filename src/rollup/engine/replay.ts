/**
 * Replaying a block's transactions from the state before it, to get the state around each one (blocks
 * keep only the state after all their transactions). Every transaction was checked when it was added,
 * so the replay applies each with its recorded outcome, fee charged, and reproduces the block's state.
 */
import { applyTransaction } from './execute.js';
import type { ExecutedTx, Felt, GasPrices, RollupState } from './types.js';

export interface ReplayContext {
  readonly chainId: Felt;
  readonly gasPrices: GasPrices;
  readonly sequencerAddress: Felt;
  readonly feeTokens: { readonly eth: Felt; readonly strk: Felt };
}

/** The states before and after each transaction of `txs`, applied in order from `start`. */
export function replay(
  start: RollupState,
  txs: readonly ExecutedTx[],
  ctx: ReplayContext,
): { executed: ExecutedTx; before: RollupState; after: RollupState }[] {
  let state = start;
  return txs.map((executed) => {
    const tx = executed.tx;
    // A DEPLOY_ACCOUNT's class was declared and a DECLARE's was not when they were added.
    const applied = applyTransaction(state, tx, executed.outcome, { ...ctx, validate: false, charge: true, isDeclared: () => tx.kind !== 'DECLARE' });
    const before = state;
    state = applied.state;
    return { executed, before, after: state };
  });
}
