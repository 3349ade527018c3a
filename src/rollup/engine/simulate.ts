/** Transactions simulated on a block's state, one after another, without changing the chain (fee estimates, starknet_simulateTransactions). */
import { RollupError } from '../../errors.js';
import type { RollupConfig } from './chainTypes.js';
import { applyTransaction, TransactionFailure } from './execute.js';
import { GWEI } from './fees.js';
import type { BlockId, ExecutedTx, FeeEstimate, Felt, PendingBlock, RollupState, RollupTransaction, SealedBlock } from './types.js';

/** What a simulation reads of a chain (RollupChain has it). */
export interface SimulationSource {
  readonly config: RollupConfig;
  block(id: BlockId): SealedBlock | PendingBlock | undefined;
  stateAt(block: SealedBlock | PendingBlock): RollupState;
  declaredIn(block: SealedBlock | 'pending', extra?: ReadonlySet<Felt>): (classHash: Felt) => boolean;
}

export interface SimulatedTx {
  readonly executed: ExecutedTx;
  readonly before: RollupState;
  readonly after: RollupState;
  readonly estimate: FeeEstimate;
}

/** Each transaction simulated on the state the previous ones left: its execution, the states around it and its fee estimate. */
export function simulateTransactions(
  chain: SimulationSource,
  txs: readonly RollupTransaction[],
  id: BlockId,
  opts: { validate?: boolean; charge?: boolean } = {},
): SimulatedTx[] {
  const block = chain.block(id);
  if (block === undefined) throw new RollupError(24, 'Block not found');
  let state = chain.stateAt(block);
  const declared = new Set<Felt>();
  const isDeclared = chain.declaredIn('number' in block ? block : 'pending', declared);
  return txs.map((tx, i) => {
    let applied;
    try {
      applied = applyTransaction(state, tx, undefined, {
        chainId: chain.config.chainId,
        gasPrices: block.gasPrices,
        sequencerAddress: block.sequencerAddress,
        feeTokens: chain.config.feeTokens,
        validate: opts.validate ?? true,
        charge: opts.charge ?? false,
        isDeclared,
      });
    } catch (err) {
      if (!(err instanceof TransactionFailure)) throw err;
      if (err.kind === 'not-deployed') throw new RollupError(20, 'Contract not found', { transaction_index: i, revert_error: err.reason });
      throw new RollupError(40, 'Contract error', { transaction_index: i, revert_error: err.reason });
    }
    const before = state;
    state = applied.state;
    if (tx.kind === 'DECLARE') declared.add(tx.classHash);
    const gasPrice = (tx.version === 1 ? block.gasPrices.wei : block.gasPrices.fri) / GWEI;
    const gasConsumed = applied.executed.gasConsumed;
    return {
      executed: applied.executed,
      before,
      after: state,
      estimate: { gasConsumed, gasPrice, overallFee: gasConsumed * gasPrice, unit: tx.version === 1 ? 'WEI' : 'FRI' },
    };
  });
}
