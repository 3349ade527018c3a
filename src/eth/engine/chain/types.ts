/**
 * The engine's own types: what EthChain keeps and answers with. Bigints, bytes and @ethereumjs
 * objects only; the formatters in src/eth/format turn them into wire objects.
 */
import type { Block, BlockHeader, HeaderData } from '@ethereumjs/block';
import type { Common, GenesisState } from '@ethereumjs/common';
import type { AccessListBytes, TypedTransaction } from '@ethereumjs/tx';
import type { Address, EOACode7702AuthorizationListBytes } from '@ethereumjs/util';

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
  /** Hash of each transaction, in order (a restored block's come from its chain image: nothing decoded or hashed). */
  readonly txHashes: readonly Uint8Array[];
  /** The transaction at `index`, decoded alone while the Block is not (a restored block; absent: `block.transactions[index]`). */
  transactionAt?(index: number): TypedTransaction;
  /** The receipt at `index`, decoded alone while `receipts` is not (a restored block; absent: `receipts[index]`). */
  receiptAt?(index: number): StoredReceipt;
  /** A restored block's fields read from its RLP for formatting (absent: the formatters read `block`). */
  readonly raw?: RawBlockFields;
  /** A restored block's bytes as its chain image saved them (block RLP, senders, receipts), written again as they are. */
  readonly saved?: { readonly block: Uint8Array; readonly senders: Uint8Array; readonly receipts: Uint8Array };
}

/** The header fields the read methods format, named as BlockHeader names them (a BlockHeader is one). */
export interface HeaderFields {
  readonly parentHash: Uint8Array;
  readonly uncleHash: Uint8Array;
  readonly coinbase: Address;
  readonly stateRoot: Uint8Array;
  readonly transactionsTrie: Uint8Array;
  readonly receiptTrie: Uint8Array;
  readonly logsBloom: Uint8Array;
  readonly difficulty: bigint;
  readonly number: bigint;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly timestamp: bigint;
  readonly extraData: Uint8Array;
  readonly mixHash: Uint8Array;
  readonly nonce: Uint8Array;
  readonly baseFeePerGas?: bigint;
  readonly withdrawalsRoot?: Uint8Array;
  readonly blobGasUsed?: bigint;
  readonly excessBlobGas?: bigint;
  readonly parentBeaconBlockRoot?: Uint8Array;
  readonly requestsHash?: Uint8Array;
}

interface TxFieldsOfEveryType {
  readonly nonce: bigint;
  readonly gasLimit: bigint;
  readonly to?: Address;
  readonly value: bigint;
  readonly data: Uint8Array;
  readonly v?: bigint;
  readonly r?: bigint;
  readonly s?: bigint;
}
interface FeeMarketFields extends TxFieldsOfEveryType {
  readonly chainId: bigint;
  readonly maxPriorityFeePerGas: bigint;
  readonly maxFeePerGas: bigint;
  readonly accessList: AccessListBytes;
}

/** The fields the read methods format of a transaction of each type, named as @ethereumjs names them (each of its transactions is one). */
export type TxFields =
  | (TxFieldsOfEveryType & { readonly type: 0; readonly gasPrice: bigint })
  | (TxFieldsOfEveryType & { readonly type: 1; readonly chainId: bigint; readonly gasPrice: bigint; readonly accessList: AccessListBytes })
  | (FeeMarketFields & { readonly type: 2 })
  | (FeeMarketFields & { readonly type: 3; readonly maxFeePerBlobGas: bigint; readonly blobVersionedHashes: readonly string[] })
  | (FeeMarketFields & { readonly type: 4; readonly authorizationList: EOACode7702AuthorizationListBytes });

/** What a receipt needs of its transaction. */
export interface TxTypeAndTo {
  readonly type: number;
  readonly to?: Address;
}

/** A withdrawal (EIP-4895), amount in Gwei. */
export interface WithdrawalFields {
  readonly index: bigint;
  readonly validatorIndex: bigint;
  readonly address: Address;
  readonly amount: bigint;
}

/** What the formatters read of a block straight from its RLP (rawBlock.ts), without @ethereumjs objects. */
export interface RawBlockFields {
  /** Length of the block's RLP (geth's Block.Size()). */
  readonly size: number;
  /** The block's RLP itself (debug_getRawBlock and friends read it). */
  readonly bytes: Uint8Array;
  readonly header: HeaderFields;
  /** The fields of the transaction at `index` (decoded afresh on each call). */
  txFields(index: number): TxFields;
  /** Type and recipient of the transaction at `index`, read without decoding the rest. */
  txTypeAndTo(index: number): TxTypeAndTo;
  readonly uncleHashes: readonly Uint8Array[];
  /** Absent before Shanghai. */
  readonly withdrawals: readonly WithdrawalFields[] | undefined;
}

/** A transaction waiting in the pending pool. */
export interface PendingTx {
  readonly tx: TypedTransaction;
  readonly sender: Address;
}

/** Where a transaction is: in a mined block at an index, or in the pending pool. */
export type TxLookup =
  | { readonly kind: 'mined'; readonly block: MinedBlock; readonly index: number }
  | { readonly kind: 'pending'; readonly pending: PendingTx };

/** A dev account: address and private key, derived from the seed's mnemonic. */
export interface DevAccount {
  readonly address: Address;
  readonly privateKey: Uint8Array;
}

export interface EthChainOptions {
  /** How many blocks `safe` trails `latest` (default 32, clamped at genesis). */
  safeDepth?: number;
  /** How many blocks `finalized` trails `latest` (default 64, clamped at genesis). */
  finalizedDepth?: number;
}

/** Genesis of a chain made from parts (e.g. a geth genesis.json). */
export interface GenesisArgs {
  /** Chain rules; may carry a hardfork schedule (each block then runs under its own hardfork). */
  common: Common;
  /** Genesis accounts, as `parseGethGenesisState` gives them. */
  state?: GenesisState;
  /** The genesis block as published; its state root must equal the one computed from `state`. */
  genesisBlock?: Block;
  /** Or header fields to build the genesis block from (number and stateRoot are filled in). */
  header?: HeaderData;
  /** Dev accounts (address and key) known for this chain, if any; their funds belong in `state`. */
  accounts?: DevAccount[];
}

/** Everything a chain is rebuilt from without executing anything (see chainImage.ts). */
export interface ChainParts {
  readonly common: Common;
  /** The trie node store: every state, storage and code node by unprefixed hex key (values: bytes, or hex where a trie wrote strings). */
  readonly nodes: Map<string, Uint8Array>;
  /** Every mined block from genesis, in order. */
  readonly blocks: readonly MinedBlock[];
  readonly pool: readonly PendingTx[];
  readonly accounts: readonly DevAccount[];
}

/** What the next block's header may be given (the rest follows from its parent). */
export interface NextHeader {
  timestamp?: bigint;
  coinbase?: Address;
  /** The block's gas limit (default: its parent's). */
  gasLimit?: bigint;
  /** The block's base fee (default: EIP-1559's from its parent; only where EIP-1559 is active). */
  baseFeePerGas?: bigint;
  /** The block's prevRandao, its mixHash (default: its parent's; only after the merge). */
  prevRandao?: Uint8Array;
}

/** A pool transaction a block did not take, and why. */
export interface SkippedTx {
  readonly pending: PendingTx;
  readonly error: string;
}

/** A mined block, and the pool transactions it did not take. */
export interface MineResult {
  readonly block: MinedBlock;
  readonly skipped: readonly SkippedTx[];
}
