/**
 * The header object of eth_getHeaderByNumber / eth_getHeaderByHash and the uncle block object of
 * eth_getUncleBy*AndIndex, as geth's RPCMarshalHeader (keys in alphabetical order, as geth's map gives them): the
 * block object's header fields, without `totalDifficulty` (geth's header has none; SPEC 2.1 keeps it for the
 * block object only), `size`, `transactions`, `uncles` or `withdrawals`. An uncle adds `size` (of a block of that
 * header alone) and `uncles: []`, as geth's RPCMarshalBlock of types.NewBlockWithHeader(uncle).
 */
import { bytesHex, quantityHex } from '../../hex.js';
import type { UncleHeader } from '../engine/chain/rawBytes.js';
import type { HeaderFields } from '../engine/chain/types.js';
import { sortedKeys } from './sorted.js';

/** geth's RPCMarshalHeader of a header with this hash. */
export function formatHeader(h: HeaderFields, hash: Uint8Array): Record<string, unknown> {
  const out: Record<string, unknown> = {
    number: quantityHex(h.number),
    hash: bytesHex(hash),
    parentHash: bytesHex(h.parentHash),
    nonce: bytesHex(h.nonce),
    mixHash: bytesHex(h.mixHash),
    sha3Uncles: bytesHex(h.uncleHash),
    logsBloom: bytesHex(h.logsBloom),
    stateRoot: bytesHex(h.stateRoot),
    miner: h.coinbase.toString(),
    difficulty: quantityHex(h.difficulty),
    extraData: bytesHex(h.extraData),
    gasLimit: quantityHex(h.gasLimit),
    gasUsed: quantityHex(h.gasUsed),
    timestamp: quantityHex(h.timestamp),
    transactionsRoot: bytesHex(h.transactionsTrie),
    receiptsRoot: bytesHex(h.receiptTrie),
  };
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = quantityHex(h.baseFeePerGas);
  if (h.withdrawalsRoot !== undefined) out.withdrawalsRoot = bytesHex(h.withdrawalsRoot);
  if (h.blobGasUsed !== undefined) out.blobGasUsed = quantityHex(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) out.excessBlobGas = quantityHex(h.excessBlobGas);
  if (h.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = bytesHex(h.parentBeaconBlockRoot);
  if (h.requestsHash !== undefined) out.requestsHash = bytesHex(h.requestsHash);
  return sortedKeys(out);
}

/** The pending block's header as geth answers it: hash, nonce and miner null (number and logsBloom kept). */
export function formatPendingHeader(h: HeaderFields, hash: Uint8Array): Record<string, unknown> {
  return { ...formatHeader(h, hash), hash: null, miner: null, nonce: null };
}

/** An uncle as geth answers eth_getUncleBy*AndIndex: its header, the size of a block of it alone, no uncles. */
export function formatUncle(u: UncleHeader): Record<string, unknown> {
  return sortedKeys({ ...formatHeader(u.header, u.hash), size: quantityHex(u.size), uncles: [] });
}
