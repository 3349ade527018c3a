/**
 * The engine's own types: what EthChain keeps and answers with. Bigints, bytes and @ethereumjs
 * objects only; the formatters in src/eth/format turn them into wire objects.
 */
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';

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
  readonly root?: Uint8Array;
  readonly cumulativeGasUsed: bigint;
  readonly gasUsed: bigint;
  readonly effectiveGasPrice: bigint;
  readonly logsBloom: Uint8Array;
  readonly logs: readonly StoredLog[];
  /** The created contract's address, for a contract creation. */
  readonly contractAddress?: Address;
  /** Blob gas used and blob gas price, for blob (type 3) transactions. */
  readonly blobGasUsed?: bigint;
  readonly blobGasPrice?: bigint;
}

/** A mined block with everything the read methods need, computed once. */
export interface MinedBlock {
  readonly block: Block;
  readonly hash: Uint8Array;
  readonly number: bigint;
  readonly totalDifficulty: bigint;
  /** Sender of each transaction, recovered once. */
  readonly senders: readonly Address[];
  readonly receipts: readonly StoredReceipt[];
}

/** A transaction waiting in the pending pool. */
export interface PendingTx {
  readonly tx: TypedTransaction;
  readonly sender: Address;
}

/** Where a transaction is: in a mined block at an index, or in the pending pool. */
export type TxLookup = { readonly kind: 'mined'; readonly block: MinedBlock; readonly index: number } | { readonly kind: 'pending'; readonly pending: PendingTx };
