/**
 * The receipt object (SPEC 2.3) with geth's (alphabetical) key order: `root` before Byzantium or `status` from
 * Byzantium on (never both), effectiveGasPrice, contractAddress (null unless a creation), blob gas
 * fields for type 3, and its logs with block-wide logIndex.
 */
import { TransactionType } from '@ethereumjs/tx';
import { bytesHex, quantityHex } from '../../hex.js';
import type { MinedBlock } from '../engine/types.js';
import { formatLog } from './log.js';
import { sortedKeys } from './sorted.js';

/** Wire receipts already made, per block object (its receipts never change). */
const formatted = new WeakMap<MinedBlock, Record<string, unknown>[]>();

/** The receipt of the transaction at `index` of a mined block; made once, then shared (callers must not change it). */
export function formatReceipt(mined: MinedBlock, index: number): Record<string, unknown> {
  let receipts = formatted.get(mined);
  if (receipts === undefined) formatted.set(mined, (receipts = []));
  return (receipts[index] ??= makeReceipt(mined, index));
}

function makeReceipt(mined: MinedBlock, index: number): Record<string, unknown> {
  const tx = mined.block.transactions[index]!;
  const receipt = mined.receipts[index]!;
  const txHash = tx.hash();
  const out: Record<string, unknown> = {
    blockHash: bytesHex(mined.hash),
    blockNumber: quantityHex(mined.number),
    contractAddress: receipt.contractAddress === undefined ? null : receipt.contractAddress.toString(),
    cumulativeGasUsed: quantityHex(receipt.cumulativeGasUsed),
    effectiveGasPrice: quantityHex(receipt.effectiveGasPrice),
    from: mined.senders[index]!.toString(),
    gasUsed: quantityHex(receipt.gasUsed),
    logs: receipt.logs.map((log) =>
      formatLog(log, { blockHash: mined.hash, blockNumber: mined.number, transactionHash: txHash, transactionIndex: index }),
    ),
    logsBloom: bytesHex(receipt.logsBloom),
  };
  if (receipt.root !== undefined) out.root = bytesHex(receipt.root);
  else out.status = quantityHex(receipt.status ?? 0);
  out.to = tx.to === undefined ? null : tx.to.toString();
  out.transactionHash = bytesHex(txHash);
  out.transactionIndex = quantityHex(index);
  out.type = quantityHex(tx.type);
  if (tx.type === TransactionType.BlobEIP4844) {
    out.blobGasUsed = quantityHex(receipt.blobGasUsed ?? 0n);
    out.blobGasPrice = quantityHex(receipt.blobGasPrice ?? 0n);
  }
  return sortedKeys(out);
}

/** Every receipt of a block, in order. */
export function formatBlockReceipts(mined: MinedBlock): Record<string, unknown>[] {
  return mined.block.transactions.map((_, i) => formatReceipt(mined, i));
}
