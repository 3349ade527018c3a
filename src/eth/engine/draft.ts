/** A block being built on top of head: transactions run one by one, then it is sealed and indexed. */
import { createBlock, type Block, type HeaderData } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import { RLP } from '@ethereumjs/rlp';
import { buildBlock, encodeReceipt, type BlockBuilder, type RunTxResult, type VM } from '@ethereumjs/vm';
import { minedBlock, storedReceipts } from './receipts.js';
import { TrieWriter } from './trieWriter.js';
import type { MinedBlock } from './types.js';

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

/**
 * The builder's transaction and receipt tries computed with a TrieWriter (the same roots; @ethereumjs
 * writes each entry through a full trie put, which costs more than running the transactions).
 */
function fastRoots(builder: BlockBuilder, vm: VM): void {
  const hash = vm.common.customCrypto.keccak256;
  const txs = () => builder['transactions'] as TypedTransaction[];
  builder.transactionsTrie = async () => TrieWriter.root(txs().map((tx, i) => [RLP.encode(i), tx.serialize()]), hash);
  builder.receiptTrie = async () => {
    const results = builder['transactionResults'] as RunTxResult[];
    return TrieWriter.root(results.map((r, i) => [RLP.encode(i), encodeReceipt(r.receipt, txs()[i]!.type)]), hash);
  };
}

export class BlockDraft {
  private readonly senders: Address[] = [];
  private readonly results: RunTxResult[] = [];

  private constructor(
    /** The VM whose state the draft changes (its state is mid-block while the draft is open). */
    readonly vm: VM,
    readonly parent: MinedBlock,
    /** An empty block with this draft's header: the context to estimate gas in. */
    readonly context: Block,
    private readonly builder: BlockBuilder,
    private readonly onSeal: (mined: MinedBlock) => Promise<void>,
  ) {}

  static async open(vm: VM, parent: MinedBlock, headerData: HeaderData, onSeal: (mined: MinedBlock) => Promise<void>): Promise<BlockDraft> {
    const pow = vm.common.consensusType() === 'pow';
    const blockOpts = { putBlockIntoBlockchain: false, ...(pow ? { calcDifficultyFromHeader: parent.block.header } : {}) };
    const withdrawals = vm.common.isActivatedEIP(4895) ? [] : undefined;
    const builder = await buildBlock(vm, { parentBlock: parent.block, headerData, withdrawals, blockOpts });
    fastRoots(builder, vm);
    const fullHeader = builder['headerData'] as HeaderData;
    const context = createBlock({ header: fullHeader, withdrawals }, { common: vm.common, ...(pow ? { calcDifficultyFromHeader: parent.block.header } : {}) });
    return new BlockDraft(vm, parent, context, builder, onSeal);
  }

  /** Number of transactions added so far. */
  get count(): number {
    return this.results.length;
  }

  /** Runs a transaction in the block; throws (and leaves the block as it was) when it is invalid. */
  async add(tx: TypedTransaction, sender: Address): Promise<RunTxResult> {
    const result = await this.addToBuilder(tx);
    this.senders.push(sender);
    this.results.push(result);
    return result;
  }

  /**
   * The builder's addTransaction, shown an empty transaction list: it makes a Block of the header
   * and every transaction so far as the tx's context, and that re-creates each earlier transaction
   * (quadratic in the block's size), while running a transaction reads only the header. Under
   * EIP-7928 the list's length is the tx's access-list index, so the builder sees it whole there.
   */
  private async addToBuilder(tx: TypedTransaction): Promise<RunTxResult> {
    if (this.vm.common.isActivatedEIP(7928)) return this.builder.addTransaction(tx);
    const builder = this.builder as unknown as { transactions: TypedTransaction[] };
    const earlier = builder.transactions;
    builder.transactions = [];
    try {
      return await this.builder.addTransaction(tx);
    } finally {
      const added = builder.transactions;
      builder.transactions = earlier;
      earlier.push(...added);
    }
  }

  /** Seals the block (rewards, roots) and hands it to the chain. */
  async seal(): Promise<MinedBlock> {
    const { block } = await this.builder.build();
    const receipts = this.results.map((r) => r.receipt);
    const mined = minedBlock(block, this.parent.totalDifficulty, this.senders, storedReceipts(block, this.senders, receipts, this.results));
    await this.onSeal(mined);
    return mined;
  }
}
