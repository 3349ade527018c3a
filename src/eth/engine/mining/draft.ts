/**
 * A block being built on a parent: transactions run one by one, then it is sealed. Pure building: a function of the
 * parent, the transactions and the header fields, on the VM it is given; the sealed block goes to whoever opened the
 * draft (the node appends it to the chain), never back into the chain from here.
 */
import { Block, createBlock, type HeaderData } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, type CLRequest, type CLRequestType, toBytes, toType, TypeOutput, type WithdrawalData } from '@ethereumjs/util';
import { RLP } from '@ethereumjs/rlp';
import { runTx, type BlockBuilder, type RunTxResult, type VM } from '@ethereumjs/vm';
import { encodeReceiptAhead } from '../evm/logsAhead.js';
import { minedBlock, storedReceipts } from '../chain/receipts.js';
import { TrieWriter } from '../state/trieWriter.js';
import { prefetchBlock, prefetchTx, prefetchTxs, type SentTx } from '../fork/prefetch.js';
import { ForkStateManager } from '../fork/forkStateManager.js';
import type { MinedBlock } from '../chain/types.js';
import { nextTurn } from '../../../turnSlice.js';
import {
  addShowing,
  builderHeaderData,
  builderMinerValue,
  builderResults,
  checkBuilderOpen,
  openBlockBuilder,
  openBuilder,
  recordResult,
  sealedHeaderHash,
} from '../evm/blockBuilder.js';

/** Header fields of the child of `parent` at `timestamp`; the rest (base fee, gas limit, blob gas) buildBlock derives. */
export function nextHeaderData(parent: Block, timestamp: bigint, coinbase: Address | undefined): HeaderData {
  const common = parent.common;
  return {
    number: parent.header.number + 1n,
    parentHash: parent.hash(),
    timestamp,
    gasLimit: parent.header.gasLimit,
    coinbase: coinbase ?? parent.header.coinbase,
    ...(common.gteHardfork('paris') ? { difficulty: 0n, mixHash: parent.header.mixHash } : {}),
  };
}

/** Header fields of the child of `parent` as `header` asks (default: 12 s after it, its gas limit, EIP-1559's base fee). */
export function headerDataFor(
  parent: MinedBlock,
  header: { timestamp?: bigint; coinbase?: Address; gasLimit?: bigint; baseFeePerGas?: bigint; prevRandao?: Uint8Array },
): HeaderData {
  const data = nextHeaderData(parent.block, header.timestamp ?? parent.block.header.timestamp + 12n, header.coinbase);
  if (header.gasLimit !== undefined) data.gasLimit = header.gasLimit;
  if (header.baseFeePerGas !== undefined && parent.block.common.isActivatedEIP(1559)) data.baseFeePerGas = header.baseFeePerGas;
  if (header.prevRandao !== undefined && data.mixHash !== undefined) data.mixHash = header.prevRandao;
  return data;
}

/**
 * The builder's transaction and receipt tries computed with a TrieWriter (the same roots; @ethereumjs
 * writes each entry through a full trie put, which costs more than running the transactions), of
 * the draft's transactions (`txs`).
 */
function fastRoots(builder: BlockBuilder, vm: VM, txs: () => readonly TypedTransaction[], ahead: () => RootsAhead | undefined): void {
  const hash = vm.common.customCrypto.keccak256;
  // A root made ahead (sealWithRequests) is taken when it was made of the same transactions.
  const made = () => {
    const a = ahead();
    return a !== undefined && a.count === txs().length && a.count === builderResults(builder).length ? a : undefined;
  };
  builder.transactionsTrie = async () => made()?.transactions ?? transactionsRoot(txs(), hash);
  builder.receiptTrie = async () => made()?.receipts ?? receiptsRoot(builderResults(builder), txs(), hash);
}

function transactionsRoot(txs: readonly TypedTransaction[], hash: ((b: Uint8Array) => Uint8Array) | undefined): Uint8Array {
  return TrieWriter.root(
    txs.map((tx, i) => [RLP.encode(i), tx.serialize()]),
    hash,
  );
}

function receiptsRoot(results: readonly RunTxResult[], txs: readonly TypedTransaction[], hash: ((b: Uint8Array) => Uint8Array) | undefined): Uint8Array {
  return TrieWriter.root(
    results.map((r, i) => [RLP.encode(i), encodeReceiptAhead(r.receipt, txs[i]!.type)]),
    hash,
  );
}

/** The transaction and receipt roots of a draft's first `count` transactions, made before build() asks for them. */
interface RootsAhead {
  readonly count: number;
  readonly transactions: Uint8Array;
  readonly receipts: Uint8Array;
}

/**
 * A turn of the event loop: what is waiting for I/O runs (and the chains of work waiting for the shared slice before
 * this one: turnSlice.ts).
 */
const turn = nextTurn;

export class BlockDraft {
  private readonly senders: Address[] = [];
  private readonly results: RunTxResult[] = [];
  /**
   * The block's transactions, kept here rather than in the builder, whose list stays empty: the
   * builder re-creates every transaction of its list in each Block it makes (one per added tx, and
   * the sealed one), and the sealed block gets these very objects (hashes and senders known).
   */
  private readonly txs: TypedTransaction[] = [];

  private context_: Block | undefined;
  private rootsAhead: RootsAhead | undefined;

  private constructor(
    /** The VM whose state the draft changes (its state is mid-block while the draft is open). */
    readonly vm: VM,
    readonly parent: MinedBlock,
    private readonly makeContext: () => Block,
    private readonly builder: BlockBuilder,
  ) {}

  /** An empty block with this draft's header: the context transactions run and gas is estimated in (made on first use: an empty block needs none). */
  get context(): Block {
    return (this.context_ ??= this.makeContext());
  }

  static async open(vm: VM, parent: MinedBlock, headerData: HeaderData, blockWithdrawals: readonly WithdrawalData[] = []): Promise<BlockDraft> {
    const pow = vm.common.consensusType() === 'pow';
    const blockOpts = { putBlockIntoBlockchain: false, ...(pow ? { calcDifficultyFromHeader: parent.block.header } : {}) };
    // No withdrawals: no list, rather than an empty one, for which build() would make a MerklePatriciaTrie to hash
    // nothing. Without a list an EIP-4895 header takes the empty trie's root and the block an empty list (@ethereumjs's
    // defaults): the same block.
    const withdrawals = vm.common.isActivatedEIP(4895) && blockWithdrawals.length > 0 ? [...blockWithdrawals] : undefined;
    // On a fork: what opening the block reads (system calls, coinbase), fetched in one batch request.
    const number = parent.block.header.number + 1n;
    await prefetchBlock(
      vm.stateManager,
      vm.common,
      number,
      toType(headerData.timestamp, TypeOutput.BigInt) ?? 0n,
      headerData.coinbase === undefined ? undefined : new Address(toBytes(headerData.coinbase)),
    );
    const builder = await openBlockBuilder(vm, { parentBlock: parent.block, headerData, withdrawals, blockOpts });
    const fullHeader = builderHeaderData(builder);
    const context = () =>
      createBlock({ header: fullHeader, withdrawals }, { common: vm.common, ...(pow ? { calcDifficultyFromHeader: parent.block.header } : {}) });
    const draft = new BlockDraft(vm, parent, context, builder);
    fastRoots(
      builder,
      vm,
      () => draft.txs,
      () => draft.rootsAhead,
    );
    return draft;
  }

  /** Number of transactions added so far. */
  get count(): number {
    return this.results.length;
  }

  /** On a fork: fetches what each of `txs` is known to read, in one batch request (before they are added one by one). */
  prefetch(txs: readonly SentTx[]): Promise<void> {
    return prefetchTxs(this.vm.stateManager, txs, this.context.header.coinbase);
  }

  /** Runs a transaction in the block; throws (and leaves the block as it was) when it is invalid. */
  async add(tx: TypedTransaction, sender: Address): Promise<RunTxResult> {
    // On a fork: what the transaction is known to read, fetched in one batch request before it runs.
    await prefetchTx(this.vm.stateManager, tx, sender, this.context.header.coinbase);
    const result = await this.addToBuilder(tx);
    this.senders.push(sender);
    this.results.push(result);
    return result;
  }

  /**
   * Runs `tx` as the builder's addTransaction does (gas check, runTx, the builder's gas and miner
   * value), but in the draft's context block: addTransaction makes a new Block (header, Common copy
   * and every earlier transaction re-created) for each tx, while runTx reads only the header and
   * takes the gas used so far separately. Blob transactions (blob gas in the header), EIP-7928 (the
   * tx's index in the access list) and EIP-8037 (two-dimensional gas) go through addTransaction.
   */
  private async addToBuilder(tx: TypedTransaction): Promise<RunTxResult> {
    const common = this.vm.common;
    const builder = this.builder;
    if (tx.type === 3 || common.isActivatedEIP(7928) || common.isActivatedEIP(8037)) return this.addThroughBuilder(tx);
    checkBuilderOpen(builder);
    await openBuilder(builder);
    if (tx.gasLimit > this.context.header.gasLimit - builder.gasUsed) throw new Error('tx has a higher gas limit than the remaining gas in the block');
    const result = await runTx(this.vm, { tx, block: this.context, blockGasUsed: builder.gasUsed });
    this.txs.push(tx);
    recordResult(builder, result);
    return result;
  }

  /** The builder's addTransaction, shown the transactions so far only where it needs them (EIP-7928: their count). */
  private async addThroughBuilder(tx: TypedTransaction): Promise<RunTxResult> {
    const { result, added } = await addShowing(this.builder, this.vm.common.isActivatedEIP(7928) ? [...this.txs] : [], tx);
    // The builder's own copy (a blob tx without its blobs, as blocks hold it).
    this.txs.push(added);
    return result;
  }

  /** Seals the block (rewards, roots) and gives it (not yet on any chain). */
  async seal(): Promise<MinedBlock> {
    return (await this.sealWithRequests()).mined;
  }

  /** What the transactions paid the block's fee recipient so far (the builder's miner value: tips). */
  get minerValue(): bigint {
    return builderMinerValue(this.builder);
  }

  /** Seals the block as seal() does, and gives its EIP-7685 requests too (none before Prague). */
  async sealWithRequests(): Promise<{ mined: MinedBlock; requests: readonly CLRequest<CLRequestType>[] }> {
    // A block with transactions is sealed in stages, the event loop turning between them (#25: in one piece, the end of
    // the last transaction's run and the seal of a block of 2,000 logs were one turn of up to ~50 ms, every network
    // waiting): the transaction root, the receipt root, the state's flush, build() (what is left: rewards,
    // withdrawals, requests, the state root, the header), the stored receipts. The same block, byte for byte: each
    // stage computes what build() would, on the same state (the caller holds the writer; nothing runs in the block
    // between the stages). An empty block has nothing to split.
    const staged = this.txs.length > 0;
    if (staged) await this.stagesAhead();
    const { block: sealed, requests } = await this.builder.build();
    if (staged) await turn();
    // The builder's block holds no transactions (see txs): an empty block is it, another one gets these.
    const block = this.txs.length === 0 ? sealed : new Block(sealed.header, this.txs, [], sealed.withdrawals);
    // Its hash made as hash() makes it, with one buffer for the RLP (minedBlock and everything after read the cached one).
    sealedHeaderHash(block.header);
    const receipts = this.results.map((r) => r.receipt);
    const mined = minedBlock(block, this.parent.totalDifficulty, this.senders, storedReceipts(block, this.senders, receipts, this.results));
    return { mined, requests: requests ?? [] };
  }

  /** The seal's stages before build(), a turn before each: the two roots, then the state's changes written to its tries. */
  private async stagesAhead(): Promise<void> {
    const hash = this.vm.common.customCrypto.keccak256;
    const results = builderResults(this.builder);
    // Transactions that went through the builder's addTransaction (blob, EIP-7928, EIP-8037) count the same.
    if (results.length !== this.txs.length) return;
    await turn();
    const transactions = transactionsRoot(this.txs, hash);
    await turn();
    this.rootsAhead = { count: this.txs.length, transactions, receipts: receiptsRoot(results, this.txs, hash) };
    await turn();
    // build() asks the state root after its own writes: what the transactions wrote is flushed here, the rest there
    // (getStateRoot flushes, then hashes); a state manager without flush() does it all in build(). Not on a fork: its
    // state deletes an account (build()'s EIP-7002 system call deletes the system address) by walking its trie, and
    // after a flush ahead that walk meets the upstream's unfetched nodes under the new root (test/fork/forkChain).
    const state = this.vm.stateManager as { flush?: () => Promise<void> };
    if (typeof state.flush === 'function' && !(state instanceof ForkStateManager)) {
      await state.flush();
      await turn();
    }
  }
}
