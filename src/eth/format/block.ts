/**
 * The block object (SPEC 2.1) with geth's (alphabetical) key order, plus the fields of later hardforks as the header
 * has them (baseFeePerGas, withdrawalsRoot and withdrawals, blobGasUsed, excessBlobGas,
 * parentBeaconBlockRoot, requestsHash). `size` is the RLP length of the block, as geth's Block.Size().
 * The pending block has null hash, logsBloom, nonce and number; its transactions are pending ones.
 */
import { bytesHex, quantityHex } from '../../hex.js';
import { RawJson } from '../../rpc/rawJson.js';
import type { MinedBlock } from '../engine/chain/types.js';
import { blockSizeOf, headerOf, txOf, uncleHashesOf, withdrawalsOf } from './mined.js';
import { sortedKeys } from './sorted.js';
import { formatTransaction, minedTransactionJson, type TxPlacement } from './transaction.js';
import { rawJsonOf, textsOf, txHashHex } from './wireText.js';

export interface BlockFormatOptions {
  /** Full transaction objects (true) or their hashes (false). */
  readonly fullTransactions: boolean;
  /** Format as the pending block. */
  readonly pending?: boolean;
}

/**
 * The JSON text of a mined (not pending) block: with hashes, made once; with full transactions, that
 * text with the transactions' own cached texts (minedTransactionJson) put in place of the hash list,
 * joined per call so no transaction's text is kept twice.
 */
export function minedBlockJson(mined: MinedBlock, fullTransactions: boolean): RawJson {
  const t = textsOf(mined);
  if (t.hashes === undefined) {
    const block = formatBlock(mined, { fullTransactions: false });
    t.hashes = rawJsonOf(block);
    // Keys are sorted and values are hex: the one `"transactions":[...]` is the hash list's.
    const key = '"transactions":';
    const list = key + JSON.stringify(block.transactions);
    const at = t.hashes.text.indexOf(list);
    t.aroundTxs = { head: t.hashes.text.slice(0, at + key.length), tail: t.hashes.text.slice(at + list.length) };
  }
  if (!fullTransactions) return t.hashes;
  let text = t.aroundTxs!.head + '[';
  for (let i = 0, n = mined.senders.length; i < n; i++) text += (i === 0 ? '' : ',') + minedTransactionJson(mined, i).text;
  return new RawJson(text + ']' + t.aroundTxs!.tail);
}

/** The wire object of a block (made afresh: answers of mined blocks use minedBlockJson). */
export function formatBlock(mined: MinedBlock, opts: BlockFormatOptions): Record<string, unknown> {
  const h = headerOf(mined);
  const pending = opts.pending === true;
  const out: Record<string, unknown> = {
    number: pending ? null : quantityHex(mined.number),
    hash: pending ? null : bytesHex(mined.hash),
    parentHash: bytesHex(h.parentHash),
    nonce: pending ? null : bytesHex(h.nonce),
    mixHash: bytesHex(h.mixHash),
    sha3Uncles: bytesHex(h.uncleHash),
    logsBloom: pending ? null : bytesHex(h.logsBloom),
    stateRoot: bytesHex(h.stateRoot),
    miner: h.coinbase.toString(),
    difficulty: quantityHex(h.difficulty),
    totalDifficulty: quantityHex(mined.totalDifficulty),
    extraData: bytesHex(h.extraData),
    size: quantityHex(blockSizeOf(mined)),
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
  out.transactions = mined.txHashes.map((txHash, index) => {
    const hash = pending ? bytesHex(txHash) : txHashHex(mined, index);
    if (!opts.fullTransactions) return hash;
    const at: TxPlacement = pending
      ? { kind: 'pending' }
      : { kind: 'mined', blockHash: mined.hash, blockNumber: mined.number, blockTimestamp: h.timestamp, index, baseFee: h.baseFeePerGas };
    return formatTransaction(txOf(mined, index), mined.senders[index]!, at, hash);
  });
  out.uncles = uncleHashesOf(mined).map(bytesHex);
  const withdrawals = withdrawalsOf(mined);
  if (withdrawals !== undefined && h.withdrawalsRoot !== undefined) {
    out.withdrawals = withdrawals.map((w) => ({
      index: quantityHex(w.index),
      validatorIndex: quantityHex(w.validatorIndex),
      address: w.address.toString(),
      amount: quantityHex(w.amount),
    }));
  }
  return sortedKeys(out);
}
