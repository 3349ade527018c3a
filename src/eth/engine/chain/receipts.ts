/** Turns @ethereumjs execution results into the engine's receipts and mined blocks. */
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { RunTxResult, TxReceipt } from '@ethereumjs/vm';
import { Address, bigIntToUnpaddedBytes, generateAddress } from '@ethereumjs/util';
import type { MinedBlock, StoredLog, StoredReceipt } from './types.js';

/** What the sender paid per gas: gasPrice, or min(maxFee, baseFee + maxPriorityFee) for fee-market txs. */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if ('maxFeePerGas' in tx) {
    const base = baseFee ?? 0n;
    const tip = tx.maxPriorityFeePerGas < tx.maxFeePerGas - base ? tx.maxPriorityFeePerGas : tx.maxFeePerGas - base;
    return base + tip;
  }
  return tx.gasPrice;
}

/** One receipt per transaction, with block-wide log indexes starting at 0. */
export function storedReceipts(block: Block, senders: readonly Address[], receipts: readonly TxReceipt[], results: readonly RunTxResult[]): StoredReceipt[] {
  let logIndex = 0;
  let previousCumulative = 0n;
  return block.transactions.map((tx, i) => {
    const r = receipts[i]!;
    const logs: StoredLog[] = r.logs.map(([address, topics, data]) => ({ address: new Address(address), topics, data, logIndex: logIndex++ }));
    const gasUsed = results[i]?.totalGasSpent ?? r.cumulativeBlockGasUsed - previousCumulative;
    previousCumulative = r.cumulativeBlockGasUsed;
    const out: { -readonly [K in keyof StoredReceipt]: StoredReceipt[K] } = {
      cumulativeGasUsed: r.cumulativeBlockGasUsed,
      gasUsed,
      effectiveGasPrice: effectiveGasPrice(tx, block.header.baseFeePerGas),
      logsBloom: r.bitvector,
      logs,
    };
    if ('status' in r) out.status = r.status;
    else out.root = r.stateRoot;
    if (tx.to === undefined) out.contractAddress = new Address(generateAddress(senders[i]!.bytes, bigIntToUnpaddedBytes(tx.nonce)));
    if ('blobGasUsed' in r) {
      out.blobGasUsed = r.blobGasUsed;
      out.blobGasPrice = r.blobGasPrice;
    }
    return out;
  });
}

/** Assembles a MinedBlock from an executed block. */
export function minedBlock(block: Block, parentTotalDifficulty: bigint, senders: Address[], receipts: StoredReceipt[]): MinedBlock {
  return {
    block,
    header: block.header,
    hash: block.hash(),
    txHashes: block.transactions.map((tx) => tx.hash()),
    number: block.header.number,
    totalDifficulty: parentTotalDifficulty + block.header.difficulty,
    senders,
    receipts,
  };
}
