/**
 * The gas model of the simulation. devgate does not run Cairo; a transaction's gas is a documented
 * function of what it carries and what it does (docs/rollup.md "Fee model"):
 *
 *   gas = 2,500                                   validation, nonce update, fee transfer
 *       + 32 per calldata felt + 32 per signature felt
 *       + 612 per storage slot written (distinct contract and key)
 *       + per event:   256 + 32 per key and data felt
 *       + per message: 1,224 + 32 per payload felt
 *       + DEPLOY_ACCOUNT: 1,224 for the deployment, 32 per constructor calldata felt
 *       + DECLARE: 2,448 for the class, 1 per Sierra program felt
 */
import type { GasPrices, RollupTransaction, TxOutcome } from './types.js';

export const GAS = {
  base: 2_500n,
  calldataFelt: 32n,
  signatureFelt: 32n,
  storageWrite: 612n,
  event: 256n,
  eventFelt: 32n,
  message: 1_224n,
  messageFelt: 32n,
  deploy: 1_224n,
  declare: 2_448n,
  programFelt: 1n,
} as const;

/** Wei per gwei (and fri per gfri): estimates give prices and fees in these units. */
export const GWEI = 1_000_000_000n;

/** Gas consumed by a transaction with the given outcome. */
export function gasConsumed(tx: RollupTransaction, outcome: TxOutcome): bigint {
  const slots = new Set(outcome.storageWrites.map((w) => `${w.contractAddress.toString(16)}:${w.key.toString(16)}`));
  let gas = GAS.base + GAS.signatureFelt * BigInt(tx.signature.length);
  if (tx.kind === 'DEPLOY_ACCOUNT') gas += GAS.deploy + GAS.calldataFelt * BigInt(tx.constructorCalldata.length);
  else if (tx.kind === 'DECLARE') gas += GAS.declare + GAS.programFelt * BigInt(tx.contractClass.sierraProgram.length);
  else gas += GAS.calldataFelt * BigInt(tx.calldata.length);
  gas += GAS.storageWrite * BigInt(slots.size);
  for (const e of outcome.events) gas += GAS.event + GAS.eventFelt * BigInt(e.keys.length + e.data.length);
  for (const m of outcome.messages) gas += GAS.message + GAS.messageFelt * BigInt(m.payload.length);
  return gas;
}

/** The fee token of a transaction: v3 pays in fri (STRK), v1 in wei (ETH), an L1 handler in wei on L1. */
export function feeUnit(tx: RollupTransaction): 'WEI' | 'FRI' {
  return tx.version === 3 ? 'FRI' : 'WEI';
}

/** The block's gas price (wei or fri per gas) for a transaction. */
export function gasPriceFor(tx: RollupTransaction, prices: GasPrices): bigint {
  return tx.version === 3 ? prices.fri : prices.wei;
}

/** The most a transaction lets itself be charged. */
export function maxFeeOf(tx: RollupTransaction): bigint {
  if (tx.version === 1) return tx.maxFee;
  if (tx.kind === 'L1_HANDLER') return tx.paidFeeOnL1;
  const b = tx.resourceBounds;
  let max = b.l1Gas.maxAmount * b.l1Gas.maxPricePerUnit + b.l2Gas.maxAmount * b.l2Gas.maxPricePerUnit;
  if (b.l1DataGas !== undefined) max += b.l1DataGas.maxAmount * b.l1DataGas.maxPricePerUnit;
  return max + tx.tip * b.l2Gas.maxAmount;
}

/**
 * Gas of the L1_HANDLER transaction an L1 -> L2 message would become (starknet_estimateMessageFee): the
 * handler is called with (from_address, ...payload) and, as the simulation derives any call, writes one
 * slot and emits one event with keys [selector] and that calldata.
 */
export function l1HandlerGas(payloadLength: number): bigint {
  const calldata = BigInt(payloadLength + 1);
  return GAS.base + GAS.calldataFelt * calldata + GAS.storageWrite + GAS.event + GAS.eventFelt * (1n + calldata);
}
