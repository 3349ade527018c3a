/** Engine objects -> wire objects of the rollup_ family (SPEC 2.5-2.7): felts as 0x hex without leading zeros. */
import type { ExecutedTx, FeeEstimate, PendingBlock, SealedBlock } from './engine/types.js';

/** A felt or amount: `0x` hex without leading zeros (`0x0` for zero). */
export function feltHex(n: bigint): string {
  return '0x' + n.toString(16);
}

function prices(b: SealedBlock | PendingBlock) {
  return { price_in_fri: feltHex(b.gasPrices.fri), price_in_wei: feltHex(b.gasPrices.wei) };
}

/** A block with its transaction hashes; a pending block omits block_hash, block_number and new_root. */
export function formatBlock(b: SealedBlock | PendingBlock): Record<string, unknown> {
  const parent_hash = feltHex(b.parentHash);
  const common = {
    timestamp: Number(b.timestamp),
    sequencer_address: feltHex(b.sequencerAddress),
    l1_gas_price: prices(b),
    starknet_version: b.starknetVersion,
    transactions: b.transactions.map((t) => feltHex(t.hash)),
  };
  if (!('hash' in b)) return { status: 'PENDING', parent_hash, ...common };
  return {
    status: b.status,
    block_hash: feltHex(b.hash),
    parent_hash,
    block_number: Number(b.number),
    new_root: feltHex(b.newRoot),
    ...common,
  };
}

/** A receipt: fee, status of its block, messages sent to L1 and events (and, reverted, execution_status and revert_reason). */
export function formatReceipt(tx: ExecutedTx, block: SealedBlock): Record<string, unknown> {
  return {
    transaction_hash: feltHex(tx.hash),
    actual_fee: feltHex(tx.actualFee),
    status: block.status,
    block_hash: feltHex(block.hash),
    block_number: Number(block.number),
    messages_sent: tx.outcome.messages.map((m) => ({
      from_address: feltHex(m.fromAddress),
      to_address: feltHex(m.toAddress),
      payload: m.payload.map(feltHex),
    })),
    events: tx.outcome.events.map((e) => ({ from_address: feltHex(e.fromAddress), keys: e.keys.map(feltHex), data: e.data.map(feltHex) })),
    // Only a reverted transaction (a failed fee-token call) has these: the SPEC shape has no execution status.
    ...(tx.revertReason === undefined ? {} : { execution_status: 'REVERTED', revert_reason: tx.revertReason }),
  };
}

/** A fee estimate: gas, gas price in gwei, overall fee in gwei. */
export function formatEstimate(e: FeeEstimate): Record<string, string> {
  return { gas_consumed: feltHex(e.gasConsumed), gas_price: feltHex(e.gasPrice), overall_fee: feltHex(e.overallFee) };
}
