/** What differs by Starknet JSON-RPC version in what the `starknet_` family accepts. */
import { InvalidArgument, RollupError } from '../../errors.js';
import { arrayOf, type Decoder } from '../../rpc/params.js';
import { MAX_ESTIMATE_TRANSACTIONS } from '../methods/rollup_estimateFee.js';
import { broadcastedTransaction } from '../params.js';
import type { RollupTransaction } from '../engine/types.js';
import { isV09, type RollupContext } from '../context.js';

/** Spec 0.9 takes only v3 transactions (Starknet 0.14): a v0-v2 one is error 61, as 0.9 nodes answer it. */
export function checkTxVersion(ctx: RollupContext, version: number): void {
  if (isV09(ctx) && version !== 3)
    throw new RollupError(61, 'The transaction version is not supported', `spec 0.9 takes version 0x3 transactions only, got 0x${version.toString(16)}`);
}

/** A list of BROADCASTED_TXN (INVOKE, DEPLOY_ACCOUNT, DECLARE) to estimate or simulate: at most MAX_ESTIMATE_TRANSACTIONS. */
export const broadcastedTransactions: Decoder<RollupTransaction[]> = (value) => {
  if (Array.isArray(value) && value.length > MAX_ESTIMATE_TRANSACTIONS)
    throw new InvalidArgument(`at most ${MAX_ESTIMATE_TRANSACTIONS} transactions per request, got ${value.length}`);
  return arrayOf(broadcastedTransaction, 'an array of transactions')(value);
};
