/**
 * Records a transaction that was run outside @ethereumjs's BlockBuilder (eth_simulateV1 runs each call with geth's
 * own checks: no nonce or EOA check without validation) into the builder, as its own addTransaction would after
 * runTx: the transaction, its result and the gas counters. build() then computes the same roots, bloom and gas as
 * for a transaction added the stock way (test/eth/evm/blockBuilder.test.ts).
 */
import { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { RLP } from '@ethereumjs/rlp';
import { encodeReceipt, type BlockBuilder, type RunTxResult } from '@ethereumjs/vm';
import { TrieWriter } from '../state/trieWriter.js';

interface BuilderInternals {
  transactions: TypedTransaction[];
  transactionResults: RunTxResult[];
  gasUsed: bigint;
  blobGasUsed: bigint;
  blockRegularGasUsed: bigint;
  blockStateGasUsed: bigint;
  _minerValue: bigint;
  checkpointed: boolean;
  withdrawals: unknown[] | undefined;
  vm: {
    evm: { journal: { checkpoint(): Promise<void> } };
    common: { isActivatedEIP(n: number): boolean; param(n: string): bigint; customCrypto: { keccak256?: (b: Uint8Array) => Uint8Array } };
  };
}

/** Opens the builder's journal checkpoint as addTransaction does before its first transaction. */
export async function openBuilder(builder: BlockBuilder): Promise<void> {
  const b = builder as unknown as BuilderInternals;
  if (!b.checkpointed) {
    await b.vm.evm.journal.checkpoint();
    b.checkpointed = true;
  }
}

/** Appends a run transaction and its result to the builder (what addTransaction does after runTx). */
export function recordTransaction(builder: BlockBuilder, tx: TypedTransaction, result: RunTxResult): void {
  const b = builder as unknown as BuilderInternals;
  b.transactions.push(tx);
  b.transactionResults.push(result);
  if (b.vm.common.isActivatedEIP(8037) && result.txRegularGas !== undefined) {
    b.blockRegularGasUsed += result.txRegularGas;
    b.blockStateGasUsed += result.txStateGas ?? 0n;
    b.gasUsed = b.blockRegularGasUsed > b.blockStateGasUsed ? b.blockRegularGasUsed : b.blockStateGasUsed;
  } else {
    b.gasUsed += result.blockGasSpent;
  }
  if (result.blobGasUsed !== undefined) b.blobGasUsed += result.blobGasUsed;
  b._minerValue += result.minerValue;
}

/** The gas the builder's block has used so far. */
export const builderGasUsed = (builder: BlockBuilder): bigint => (builder as unknown as BuilderInternals).gasUsed;

/**
 * builder.build() for transactions made under another Common than the block's (eth_simulateV1's calls may carry
 * more gas than EIP-7825 allows a transaction, as geth's simulator skips that check): build() re-creates every
 * transaction under the block's Common, which refuses them. The roots are computed from the transactions as they
 * are, build() runs on an empty list with those roots, and the block is put together with the transactions.
 */
export async function buildWithTransactions(builder: BlockBuilder): Promise<Block> {
  const b = builder as unknown as BuilderInternals & { transactionsTrie(): Promise<Uint8Array>; receiptTrie(): Promise<Uint8Array> };
  const txs = b.transactions;
  // The roots as @ethereumjs computes them (RLP of the index -> serialized tx / encoded receipt), with the
  // batch writer: no MerklePatriciaTrie to make per block.
  const hash = b.vm.common.customCrypto.keccak256;
  const txRoot = TrieWriter.root(
    txs.map((tx, i) => [RLP.encode(i), tx.serialize()]),
    hash,
  );
  const receiptRoot = TrieWriter.root(
    b.transactionResults.map((r, i) => [RLP.encode(i), encodeReceipt(r.receipt, txs[i]!.type)]),
    hash,
  );
  b.transactions = [];
  b.transactionsTrie = async () => txRoot;
  b.receiptTrie = async () => receiptRoot;
  // No withdrawals: build() would make a MerklePatriciaTrie for their root. Without a list, an EIP-4895 header
  // takes the empty trie's root and the block an empty list (@ethereumjs's defaults): the same block.
  if (b.withdrawals?.length === 0) b.withdrawals = undefined;
  const { block } = await builder.build();
  return new Block(block.header, txs, [], block.withdrawals);
}
