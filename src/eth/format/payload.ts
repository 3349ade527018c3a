/**
 * engine_getPayloadV4's answer (execution-apis src/engine/prague.md), as geth's testing_buildBlockV1 sends it: the
 * execution payload (ExecutableData, geth's key order; withdrawals from Shanghai, blob gas from Cancun), the block
 * value, the blobs bundle, the execution requests and shouldOverrideBuilder (always false here).
 */
import { bytesHex, quantityHex } from '../../hex.js';
import type { BuiltPayload } from '../engine/mining/payload.js';

export function formatPayloadEnvelope(built: BuiltPayload): Record<string, unknown> {
  const block = built.mined.block;
  const h = block.header;
  const payload: Record<string, unknown> = {
    parentHash: bytesHex(h.parentHash),
    feeRecipient: h.coinbase.toString(),
    stateRoot: bytesHex(h.stateRoot),
    receiptsRoot: bytesHex(h.receiptTrie),
    logsBloom: bytesHex(h.logsBloom),
    prevRandao: bytesHex(h.mixHash),
    blockNumber: quantityHex(h.number),
    gasLimit: quantityHex(h.gasLimit),
    gasUsed: quantityHex(h.gasUsed),
    timestamp: quantityHex(h.timestamp),
    extraData: bytesHex(h.extraData),
    baseFeePerGas: quantityHex(h.baseFeePerGas ?? 0n),
    blockHash: bytesHex(block.hash()),
    transactions: block.transactions.map((tx) => bytesHex(tx.serialize())),
  };
  if (block.withdrawals !== undefined) {
    payload.withdrawals = block.withdrawals.map((w) => ({
      index: quantityHex(w.index),
      validatorIndex: quantityHex(w.validatorIndex),
      address: w.address.toString(),
      amount: quantityHex(w.amount),
    }));
  }
  if (h.blobGasUsed !== undefined) payload.blobGasUsed = quantityHex(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) payload.excessBlobGas = quantityHex(h.excessBlobGas);
  return {
    executionPayload: payload,
    blockValue: quantityHex(built.blockValue),
    blobsBundle: {
      commitments: built.blobs.commitments.map(bytesHex),
      proofs: built.blobs.proofs.map(bytesHex),
      blobs: built.blobs.blobs.map(bytesHex),
    },
    executionRequests: built.requests.map(bytesHex),
    shouldOverrideBuilder: false,
  };
}
