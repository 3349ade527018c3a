/**
 * The receipt object (SPEC 2.3) with geth's (alphabetical) key order: `root` before Byzantium or `status` from
 * Byzantium on (never both), effectiveGasPrice, contractAddress (null unless a creation), blob gas
 * fields for type 3, and its logs with block-wide logIndex.
 */
import { TransactionType } from '@ethereumjs/tx';
import { bytesHex, quantityHex } from '../../hex.js';
import { RawJson } from '../../rpc/rawJson.js';
import type { MinedBlock } from '../engine/chain/types.js';
import { wireLog } from './log.js';
import { headerOf, receiptOf, txTypeAndToOf } from './mined.js';
import { sortedKeys } from './sorted.js';
import { rawJsonOf, textsOf, txHashHex } from './wireText.js';

/** The JSON text of the receipt at `index` of a mined block, made once. */
export function receiptJson(mined: MinedBlock, index: number): RawJson {
  return (textsOf(mined).receipts[index] ??= rawJsonOf(formatReceipt(mined, index)));
}

/** The JSON text of every receipt of a mined block (eth_getBlockReceipts): the receipts' cached texts, joined per call (not kept twice). */
export function blockReceiptsJson(mined: MinedBlock): RawJson {
  let text = '[';
  for (let i = 0, n = mined.txHashes.length; i < n; i++) text += (i === 0 ? '' : ',') + receiptJson(mined, i).text;
  return new RawJson(text + ']');
}

/** The receipt of the transaction at `index` of a mined block (made afresh: answers use receiptJson). */
export function formatReceipt(mined: MinedBlock, index: number): Record<string, unknown> {
  const tx = txTypeAndToOf(mined, index);
  const receipt = receiptOf(mined, index);
  const txHash = txHashHex(mined, index);
  const blockHash = bytesHex(mined.hash);
  const blockNumber = quantityHex(mined.number);
  const blockTimestamp = quantityHex(headerOf(mined).timestamp);
  const out: Record<string, unknown> = {
    blockHash,
    blockNumber,
    contractAddress: receipt.contractAddress === undefined ? null : receipt.contractAddress.toString(),
    cumulativeGasUsed: quantityHex(receipt.cumulativeGasUsed),
    effectiveGasPrice: quantityHex(receipt.effectiveGasPrice),
    from: mined.senders[index]!.toString(),
    gasUsed: quantityHex(receipt.gasUsed),
    logs: receipt.logs.map((log) => wireLog(log, blockHash, blockNumber, blockTimestamp, txHash, index)),
    logsBloom: bytesHex(receipt.logsBloom),
  };
  if (receipt.root !== undefined) out.root = bytesHex(receipt.root);
  else out.status = quantityHex(receipt.status ?? 0);
  out.to = tx.to === undefined ? null : tx.to.toString();
  out.transactionHash = txHash;
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
  return Array.from({ length: mined.txHashes.length }, (_, i) => formatReceipt(mined, i));
}
