/**
 * The engine's own types: what EthChain keeps and answers with. Bigints, bytes and @ethereumjs
 * objects only; the formatters in src/eth/format turn them into wire objects.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';

/** A block tag as the engine understands it, or a block number. */
export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';
export type BlockId = BlockTag | bigint;

/** One log as a receipt keeps it. */
export interface StoredLog {
  readonly address: Address;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  /** Position of the log in its block (block-wide, as geth's logIndex). */
  readonly logIndex: number;
}

/** A transaction's receipt, as executed. Exactly one of `status` (Byzantium on) and `root` (before). */
export interface StoredReceipt {
  readonly status?: 0 | 1;
  /** Pre-Byzantium: the state root right after this transaction. */
  readonly root?: Uint8Array;
  readonly cumulativeGasUsed: bigint;
  /** Gas charged to this transaction (after refunds; with the EIP-7623 floor). */
  readonly gasUsed: bigint;
  /** What the sender paid per gas: gasPrice, or min(maxFee, baseFee + maxPriorityFee) for 1559-style txs. */
  readonly effectiveGasPrice: bigint;
  readonly logsBloom: Uint8Array;
  readonly logs: readonly StoredLog[];
  /** For a contract creation: the address it creates (set even when it failed, as geth does). */
  readonly contractAddress?: Address;
  /** Blob gas used and blob gas price, for blob (type 3) transactions. */
  readonly blobGasUsed?: bigint;
  readonly blobGasPrice?: bigint;
}

/**
 * A mined block with everything the read methods need, computed once. `block.transactions[i]`,
 * `senders[i]` and `receipts[i]` belong together; use `senders` (never `tx.getSenderAddress()`,
 * which would recover the signature again).
 */
export interface MinedBlock {
  readonly block: Block;
  readonly hash: Uint8Array;
  readonly number: bigint;
  /** Sum of the difficulties of all blocks up to and including this one. */
  readonly totalDifficulty: bigint;
  /** Sender of each transaction, recovered once. */
  readonly senders: readonly Address[];
  readonly receipts: readonly StoredReceipt[];
  /** `block.header`; a restored block decodes it alone, without its transactions. */
  readonly header: BlockHeader;
  /** Hash of each transaction, in order (a restored block's come from its snapshot: nothing decoded or hashed). */
  readonly txHashes: readonly Uint8Array[];
  /** The transaction at `index`, decoded alone while the Block is not (a restored block; absent: `block.transactions[index]`). */
  transactionAt?(index: number): TypedTransaction;
}

/** A transaction waiting in the pending pool. */
export interface PendingTx {
  readonly tx: TypedTransaction;
  readonly sender: Address;
}

/** Where a transaction is: in a mined block at an index, or in the pending pool. */
export type TxLookup = { readonly kind: 'mined'; readonly block: MinedBlock; readonly index: number } | { readonly kind: 'pending'; readonly pending: PendingTx };

/** A dev account: address and private key, derived from the seed's mnemonic. */
export interface DevAccount {
  readonly address: Address;
  readonly privateKey: Uint8Array;
}
