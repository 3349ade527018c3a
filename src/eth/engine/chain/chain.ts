/**
 * EthChain: the engine of an `eth` network. It keeps blocks, transactions, receipts and a Merkle
 * Patricia state trie (every historical root stays readable), and a pending pool. It speaks
 * bigints, bytes and @ethereumjs objects; it knows nothing of JSON-RPC or hex strings.
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { type Account, type Address, equalsBytes } from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';
import type { ChainView } from './chainView.js';
import { genesisCore, restoredCore, type ChainCore } from './create.js';
import { HashIndex } from './hashIndex.js';
import { BlockDraft, headerDataFor } from '../mining/draft.js';
import { buildPendingBlock, openPendingDraft } from '../mining/pending.js';
import { fillFromPool, orderForBlock, partitionByHash } from '../mining/pool.js';
import { executeForeign } from './importBlock.js';
import { resolveTag } from './tags.js';
import type { BlockId, ChainParts, DevAccount, EthChainOptions, GenesisArgs, MinedBlock, MineResult, NextHeader, PendingTx, TxLookup } from './types.js';
import { ChainEvents, type DropReason } from './events.js';
import { ChainStates } from './states.js';
import { SerialWriter } from './writer.js';

export type { ChainParts, EthChainOptions, GenesisArgs, MineResult, NextHeader, SkippedTx } from './types.js';

export class EthChain {
  private pool: PendingTx[] = [];
  /** The pending block, built on first use after the pool or head changed. */
  private pending: Promise<MinedBlock> | undefined;
  /** Blocks and mined transactions by hash, indexed on lookup (a restored start indexes none). */
  private readonly byHash: HashIndex;
  private readonly safeDepth: bigint;
  private readonly finalizedDepth: bigint;
  /** Reads and calls at any block's state (states.ts). */
  private readonly states: ChainStates;
  /** Head's state root with unmined edits (anvil_setBalance, ...); undefined when head's state is its header's. */
  private headEditedRoot: Uint8Array | undefined;
  /** What the chain tells its listeners: blocks sealed and removed, transactions pooled and dropped. */
  readonly events = new ChainEvents();
  /** The next block's header fields when none are given (setNextHeader). */
  private nextHeaderOf: () => NextHeader = () => ({});
  /** The one writer of this chain: mining, sends, edits and reverts run on it, one at a time. */
  readonly writer = new SerialWriter();
  private readonly common_: Common;
  private readonly mined: MinedBlock[];
  /** The blockchain every VM of this chain sees (BLOCKHASH, header checks). */
  readonly view: ChainView;
  /** The state at head; only block building, importing and head edits write to it. */
  private readonly headState: MerkleStateManager;
  /** The VM at head (block building and importing), made on first use: a restored chain serving reads needs none. */
  private headVm: Promise<VM> | undefined;
  private readonly accounts: readonly DevAccount[];
  /** True when `common` has a hardfork schedule (imported chains): blocks pick their hardfork. */
  private readonly scheduled: boolean;
  private sealGate: ((mined: MinedBlock) => Promise<void>) | undefined;

  private constructor(core: ChainCore, opts: EthChainOptions) {
    ({
      common: this.common_,
      mined: this.mined,
      view: this.view,
      headState: this.headState,
      headVm: this.headVm,
      accounts: this.accounts,
      scheduled: this.scheduled,
    } = core);
    this.byHash = new HashIndex(this.mined);
    this.safeDepth = BigInt(opts.safeDepth ?? 32);
    this.finalizedDepth = BigInt(opts.finalizedDepth ?? 64);
    const { headState, view, scheduled } = this;
    this.states = new ChainStates({
      headState,
      view,
      scheduled,
      commonAt: (block) => this.commonAt(block.number, block.header.timestamp),
      rootOf: (block) => this.stateRootOf(block),
    });
  }

  /** The chain's rules (with a schedule: those of genesis; see commonAt). */
  get common(): Common {
    return this.common_;
  }

  /** A chain holding only a genesis block; grow it with `importBlock` or `mineBlock` (a seed's chain: build/chainFromSeed.ts). */
  static async fromGenesis(args: GenesisArgs, opts: EthChainOptions = {}): Promise<EthChain> {
    const { core, genesis } = await genesisCore(args);
    const chain = new EthChain(core, opts);
    chain.append(genesis);
    return chain;
  }

  /**
   * A chain rebuilt from saved parts (a chain image): no block is executed. Throws when head's state
   * root is not in `nodes` or blocks are misnumbered, so a broken chain image is never used (the
   * chain image checks that blocks chain up: their hashes come from their headers).
   */
  static async restore(parts: ChainParts, opts: EthChainOptions = {}): Promise<EthChain> {
    const chain = new EthChain(await restoredCore(parts), opts);
    parts.blocks.forEach((m) => {
      chain.append(m);
    });
    chain.pool = [...parts.pool];
    return chain;
  }

  /** The parts `restore` takes (the node store is shared, not copied: encode it before the chain moves on). */
  parts(): ChainParts {
    const db = this.headState['_trie'].database().db as unknown as { _database?: Map<string, Uint8Array> };
    if (!(db._database instanceof Map)) throw new Error('the state is not kept in an in-memory node store');
    return { common: this.common, nodes: db._database, blocks: this.mined, pool: this.pool, accounts: this.accounts };
  }

  get chainId(): bigint {
    return this.common.chainId();
  }

  /** The newest mined block. */
  head(): MinedBlock {
    return this.mined[this.mined.length - 1]!;
  }

  blockByNumber(n: bigint): MinedBlock | undefined {
    return n >= 0n && n < BigInt(this.mined.length) ? this.mined[Number(n)] : undefined;
  }

  blockByHash(hash: Uint8Array): MinedBlock | undefined {
    return this.byHash.block(hash);
  }

  /** A block by tag or number; undefined for a number beyond head. `pending` is the pending block. */
  async resolveBlock(id: BlockId): Promise<MinedBlock | undefined> {
    return id === 'pending' ? this.pendingBlock() : this.resolveMined(id);
  }

  /** Like resolveBlock, for everything but `pending` (synchronous). */
  resolveMined(id: Exclude<BlockId, 'pending'>): MinedBlock | undefined {
    return resolveTag(id, this.head().number, (n) => this.blockByNumber(n), { safe: this.safeDepth, finalized: this.finalizedDepth });
  }

  /** Every mined block from `from` to head, in order (e.g. for an RLP export). */
  *blocks(from = 0n): IterableIterator<MinedBlock> {
    for (let i = Number(from); i < this.mined.length; i++) yield this.mined[i]!;
  }

  /**
   * The block that would be built now on top of head from the pool, really executed (its header
   * has the next number, base fee and a timestamp 12 s after head). Kept until pool or head change.
   */
  pendingBlock(): Promise<MinedBlock> {
    this.pending ??= this.buildPending();
    return this.pending;
  }

  /** The pool, in order. */
  pendingTransactions(): readonly PendingTx[] {
    return this.pool;
  }

  /** A transaction by hash: mined (block and index) or pending. */
  transaction(hash: Uint8Array): TxLookup | undefined {
    const found = this.byHash.transaction(hash);
    if (found !== undefined) return { kind: 'mined', block: found.block, index: found.index };
    const pending = this.pool.find((p) => equalsBytes(p.tx.hash(), hash));
    return pending === undefined ? undefined : { kind: 'pending', pending };
  }

  /** Address and private key of each dev account (for the CLI, as anvil prints them). */
  devAccounts(): readonly DevAccount[] {
    return this.accounts;
  }

  /**
   * The state root of `block`'s post-state as reads see it: the header's, except for head while it carries
   * unmined edits (reads at latest and pending see an edit at once; the next sealed block commits it).
   */
  stateRootOf(block: MinedBlock): Uint8Array {
    if (this.headEditedRoot !== undefined && block === this.head()) return this.headEditedRoot;
    return (block.raw?.header ?? block.header).stateRoot;
  }

  /** A private copy of the state after `block` (writes go to the shared node store: wrap work in checkpoint()/revert()). */
  stateAt(block: MinedBlock): Promise<MerkleStateManager> {
    return this.states.stateAt(block);
  }

  /** A VM on a copy of the state after `block`, whose BLOCKHASH answers from this chain (for eth_call and friends). */
  vmAt(block: MinedBlock): Promise<VM> {
    return this.states.vmAt(block);
  }

  /**
   * Runs `fn` with a VM at `block`'s post-state, reused across calls and leased to one call at a time.
   * `fn` must undo its writes with checkpoint()/revert() (a VM left with a checkpoint open is dropped).
   */
  withVmAt<T>(block: MinedBlock, fn: (vm: VM) => Promise<T>): Promise<T> {
    return this.states.withVmAt(block, fn);
  }

  /**
   * Runs `fn` with a call VM at `block`'s post-state (callVms.ts: writes go to a private overlay over
   * reads shared per root), leased to one call at a time; `fn` must undo its writes with checkpoint()/revert().
   */
  withCallVmAt<T>(block: MinedBlock, fn: (vm: VM) => Promise<T>): Promise<T> {
    return this.states.withCallVmAt(block, fn);
  }

  /** A shared state after `block` for reads only (no caches, so nothing is ever written back): never write to it. */
  readStateAt(block: MinedBlock): Promise<MerkleStateManager> {
    return this.states.readStateAt(block);
  }

  /** The Common of a block at this number and time (a copy; with the block's hardfork for scheduled chains). */
  commonAt(number: bigint, timestamp: bigint): Common {
    const common = this.common.copy();
    if (this.scheduled) common.setHardforkBy({ blockNumber: number, timestamp });
    return common;
  }

  /** The account at `address` after `block` (shared with other reads of that root: never change it). */
  getAccount(address: Address, block: MinedBlock): Promise<Account | undefined> {
    return this.states.getAccount(address, block);
  }

  /** The code at `address` after `block` (shared: never change it). */
  getCode(address: Address, block: MinedBlock): Promise<Uint8Array> {
    return this.states.getCode(address, block);
  }

  /** The value of a storage slot (32-byte key) as stored: minimal bytes, empty for zero (shared: never change it). */
  getStorage(address: Address, slot: Uint8Array, block: MinedBlock): Promise<Uint8Array> {
    return this.states.getStorage(address, slot, block);
  }

  /**
   * Executes a foreign block on head (no generation) and appends it: the computed state root,
   * receipts root, gas used and bloom must equal the header's, or this throws naming the block.
   * With a hardfork schedule the block runs under its own hardfork.
   */
  async importBlock(block: Block): Promise<MinedBlock> {
    const parent = this.head();
    const mined = await executeForeign(await this.vmAtHead(), block, parent, this.scheduled, () => this.headState.setStateRoot(this.stateRootOf(parent), true));
    this.append(mined);
    return mined;
  }

  /** Starts a block on head (for seeding and mining): add transactions to the draft, then seal it. */
  async draftBlock(header: NextHeader = this.nextHeaderOf()): Promise<BlockDraft> {
    const vm = await this.vmAtHead();
    const parent = this.head();
    const data = headerDataFor(parent, header);
    if (this.scheduled) vm.common.setHardforkBy({ blockNumber: parent.number + 1n, timestamp: data.timestamp as bigint });
    return BlockDraft.open(vm, parent, data, (mined) => this.sealed(mined));
  }

  /** Where the next block's header fields come from when none are given (the miner's controls); default: 12 s after head. */
  setNextHeader(source: () => NextHeader): void {
    this.nextHeaderOf = source;
    this.nextHeaderChanged();
  }

  /** Tells the chain that the next header's fields changed (the pending block is built again). */
  nextHeaderChanged(): void {
    this.pending = undefined;
  }

  /** Adds a transaction to the pending pool (its sender recovered once) and rebuilds the pending block. */
  async addPending(tx: TypedTransaction, knownSender?: Address): Promise<PendingTx> {
    const entry: PendingTx = { tx, sender: knownSender ?? tx.getSenderAddress() };
    this.pool = [...this.pool, entry];
    this.pending = undefined;
    this.events.emit('txPooled', [entry]);
    return entry;
  }

  /** Mines the pool into a new block, on the writer (see mineNow). */
  mine(header: NextHeader = {}): Promise<MineResult> {
    return this.writer.run(() => this.mineNow(header));
  }

  /** Mines the pool into a new block, on the writer, and gives the block. */
  async mineBlock(header: NextHeader = {}): Promise<MinedBlock> {
    return (await this.mine(header)).block;
  }

  /**
   * Mines the pool into a new block now: call it only from a job of `writer`. Transactions that do not
   * apply (nonce gap, funds, gas) stay in the pool and are listed in `skipped` with the reason; a failure
   * of the block itself (sealing) throws, leaving head as it was.
   */
  async mineNow(header: NextHeader = {}): Promise<MineResult> {
    const draft = await this.draftBlock(header);
    const skipped = await fillFromPool(draft, this.pool);
    try {
      return { block: await draft.seal(), skipped };
    } catch (err) {
      await this.headState.setStateRoot(this.stateRootOf(this.head()), true);
      throw err;
    }
  }

  /**
   * Cuts the chain back to block `number` (it becomes head): every later block leaves, with the indexes of
   * their hashes and transactions, and head's state is that block's (or `editedRoot`, head's root with
   * unmined edits, as a snapshot saw it). Call it only from a job of `writer`. Emits `blocksRemoved`.
   */
  async truncate(number: bigint, editedRoot?: Uint8Array): Promise<readonly MinedBlock[]> {
    if (number < 0n || number > this.head().number) throw new RangeError(`cannot cut the chain back to block ${number}: head is ${this.head().number}`);
    const removed = this.mined.splice(Number(number) + 1);
    this.byHash.forget(removed);
    this.headEditedRoot = editedRoot;
    await this.headState.setStateRoot(this.stateRootOf(this.head()), true);
    this.pending = undefined;
    if (removed.length > 0) this.events.emit('blocksRemoved', removed);
    return removed;
  }

  /**
   * Edits head's state (balances, code, nonces, storage) without mining: reads at latest and pending see the
   * edit at once, and the next sealed block commits it into its stateRoot. Call it only from a job of `writer`.
   */
  async editHead(edit: (state: MerkleStateManager) => Promise<void>): Promise<void> {
    try {
      await edit(this.headState);
      const root = await this.headState.getStateRoot();
      this.headEditedRoot = equalsBytes(root, (this.head().raw?.header ?? this.head().header).stateRoot) ? undefined : root;
    } catch (err) {
      await this.headState.setStateRoot(this.stateRootOf(this.head()), true);
      throw err;
    } finally {
      this.pending = undefined;
    }
  }

  /** Replaces the blocks above `keep` with `blocks` (a loaded dump's, their trie nodes already in the store; the caller checks they follow), head's edits and the pool. Only from a job of `writer`. */
  async adopt(keep: bigint, blocks: readonly MinedBlock[], pool: readonly PendingTx[], editedRoot?: Uint8Array): Promise<void> {
    await this.truncate(keep);
    // Through the seal gate as mined blocks go: a data directory keeps each before it joins the chain.
    for (const m of blocks) {
      await this.sealGate?.(m);
      this.append(m);
    }
    this.headEditedRoot = editedRoot;
    await this.headState.setStateRoot(this.stateRootOf(this.head()), true);
    this.setPool(pool);
  }

  /** Replaces the pool (a snapshot's revert); the pending block follows it. */
  setPool(pool: readonly PendingTx[]): void {
    this.pool = [...pool];
    this.pending = undefined;
  }

  /** Takes transactions out of the pool without mining them, and says why (emits `txDropped`). */
  dropPending(hashes: readonly Uint8Array[], reason: DropReason): PendingTx[] {
    const { taken: dropped, kept } = partitionByHash(this.pool, hashes);
    if (dropped.length === 0) return [];
    this.pool = kept;
    this.pending = undefined;
    const gone = dropped.map((p) => ({ tx: p.tx, reason }));
    this.events.emit('txDropped', gone);
    return dropped;
  }

  /** Awaited with each sealed block before it joins the chain (a data directory writes it first); a throw fails the seal. */
  setSealGate(gate: ((mined: MinedBlock) => Promise<void>) | undefined): void {
    this.sealGate = gate;
  }

  private async sealed(mined: MinedBlock): Promise<void> {
    await this.sealGate?.(mined);
    this.append(mined);
    const included = mined.block.transactions.map((tx) => tx.hash());
    this.pool = partitionByHash(this.pool, included).kept;
  }

  private append(mined: MinedBlock): void {
    this.mined.push(mined);
    this.headEditedRoot = undefined;
    this.pending = undefined;
    this.events.emit('blockSealed', mined);
  }

  /** The VM blocks are built and imported on (hooks that watch execution, such as the node log's, attach to it). */
  vmAtHead(): Promise<VM> {
    return (this.headVm ??= createVM({ common: this.common, stateManager: this.headState, blockchain: this.view }));
  }

  /** A draft of the next block on a copy of head's state, which the chain never takes (pending block, what-ifs). */
  pendingDraft(): Promise<BlockDraft> {
    return openPendingDraft(this, this.nextHeaderOf());
  }

  /** Builds the pending block from the pool on a copy of head's state. */
  private async buildPending(): Promise<MinedBlock> {
    const draft = await this.pendingDraft();
    return buildPendingBlock(draft, orderForBlock(this.pool, draft.context.header.baseFeePerGas));
  }
}
