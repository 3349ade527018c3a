/** Engine objects to wire objects of the eth_ family (geth's field names and hex forms). */
import type { Block } from '@ethereumjs/block';
import { bytesHex, quantityHex } from '../hex.js';

/** A mined block (SPEC 2.1 plus the fields of later hardforks that geth returns). */
export function formatBlock(block: Block, totalDifficulty: bigint): Record<string, unknown> {
  const h = block.header;
  const out: Record<string, unknown> = {
    number: quantityHex(h.number),
    hash: bytesHex(block.hash()),
    parentHash: bytesHex(h.parentHash),
    nonce: bytesHex(h.nonce),
    sha3Uncles: bytesHex(h.uncleHash),
    logsBloom: bytesHex(h.logsBloom),
    transactionsRoot: bytesHex(h.transactionsTrie),
    stateRoot: bytesHex(h.stateRoot),
    receiptsRoot: bytesHex(h.receiptTrie),
    miner: h.coinbase.toString(),
    difficulty: quantityHex(h.difficulty),
    totalDifficulty: quantityHex(totalDifficulty),
    extraData: bytesHex(h.extraData),
    size: quantityHex(block.serialize().length),
    gasLimit: quantityHex(h.gasLimit),
    gasUsed: quantityHex(h.gasUsed),
    timestamp: quantityHex(h.timestamp),
    mixHash: bytesHex(h.mixHash),
    transactions: block.transactions.map((tx) => bytesHex(tx.hash())),
    uncles: block.uncleHeaders.map((u) => bytesHex(u.hash())),
  };
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = quantityHex(h.baseFeePerGas);
  if (h.withdrawalsRoot !== undefined) {
    out.withdrawalsRoot = bytesHex(h.withdrawalsRoot);
    out.withdrawals = (block.withdrawals ?? []).map((w) => ({
      index: quantityHex(w.index),
      validatorIndex: quantityHex(w.validatorIndex),
      address: w.address.toString(),
      amount: quantityHex(w.amount),
    }));
  }
  if (h.blobGasUsed !== undefined) out.blobGasUsed = quantityHex(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) out.excessBlobGas = quantityHex(h.excessBlobGas);
  if (h.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = bytesHex(h.parentBeaconBlockRoot);
  if (h.requestsHash !== undefined) out.requestsHash = bytesHex(h.requestsHash);
  return out;
}
