/**
 * EthChain: the storage and reads of an `eth` network. It keeps blocks, transactions, receipts and a Merkle
 * Patricia state trie (every historical root stays readable), head's unmined edits and the pool's list, and answers
 * reads at any block. It builds nothing and decides nothing: its node (src/eth/node/) runs every write, on its one
 * writer, and emits the events. It speaks bigints, bytes and @ethereumjs objects; it knows nothing of JSON-RPC or hex.
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { type Account, type Address, equalsBytes } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { ChainView } from './chainView.js';
import { genesisCore, headVmOf, restoredCore, type ChainCore } from './create.js';
import { HashIndex } from './hashIndex.js';
import { partitionByHash } from './poolList.js';
import { executeForeign } from './importBlock.js';
import { resolveTag } from './tags.js';
import type { BlockId, ChainParts, DevAccount, EthChainOptions, GenesisArgs, MinedBlock, PendingTx, TxLookup } from './types.js';
import { ChainEvents } from './events.js';
import { ChainStates } from './states.js';
import { accountNodeMap } from '../evm/merkleState.js';

export type { ChainParts, EthChainOptions, GenesisArgs, MineResult, NextHeader, SkippedTx } from './types.js';

export class EthChain {
  /**
   * The pool's transactions, in the order they came (the node decides what enters and leaves; kept here as chain
   * data: images and data directories hold it).
   */
  private pool: PendingTx[] = [];
  /** Blocks and mined transactions by hash, indexed on lookup (a restored start indexes none). */
  private byHash: HashIndex;
  private readonly safeDepth: bigint;
  private readonly finalizedDepth: bigint;
  /** Reads and calls at any block's state (states.ts). */
  private states: ChainStates;
  /** Head's state root with unmined edits (anvil_setBalance, ...); undefined when head's state is its header's. */
  private headEditedRoot: Uint8Array | undefined;
  /** Where listeners hear of blocks sealed and removed, transactions pooled and dropped: the node emits, after each commit. */
  readonly events = new ChainEvents();
  private common_: Common;
  private mined: MinedBlock[];
  private view_: ChainView;
  /** The state at head; only block building, importing and head edits write to it. */
  private headState: MerkleStateManager;
  /** The VM at head (block building and importing), made on first use: a restored chain serving reads needs none. */
  private headVm: Promise<VM> | undefined;
  private accounts: readonly DevAccount[];
  /** True when `common` has a hardfork schedule (imported chains): blocks pick their hardfork. */
  private scheduled: boolean;

  private constructor(core: ChainCore, opts: EthChainOptions) {
    ({
      common: this.common_,
      mined: this.mined,
      view: this.view_,
      headState: this.headState,
      headVm: this.headVm,
      accounts: this.accounts,
      scheduled: this.scheduled,
    } = core);
    this.byHash = new HashIndex(this.mined);
    this.safeDepth = BigInt(opts.safeDepth ?? 32);
    this.finalizedDepth = BigInt(opts.finalizedDepth ?? 64);
    this.states = this.statesOf();
  }

  /** The reads at any block's state over this chain's head state and view. */
  private statesOf(): ChainStates {
    const { headState, view, scheduled } = this;
    return new ChainStates({
      headState,
      view,
      scheduled,
      commonAt: (block) => this.commonAt(block.number, block.header.timestamp),
      rootOf: (block) => this.stateRootOf(block),
    });
  }

  /** The blockchain every VM of this chain sees (BLOCKHASH, header checks). */
  get view(): ChainView {
    return this.view_;
  }

  /** The chain's rules (with a schedule: those of genesis; see commonAt). */
  get common(): Common {
    return this.common_;
  }

  /** A chain holding only a genesis block; grow it with `importBlock`, or a node's mining (a seed's chain: build/chainFromSeed.ts). */
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

  /** A forked chain (fork/forkChain.ts): `base`, the upstream's fork block, is its first block; its state is lazy. */
  static fromFork(core: ChainCore, base: MinedBlock, opts: EthChainOptions = {}): EthChain {
    const chain = new EthChain(core, opts);
    chain.append(base);
    return chain;
  }

  /**
   * Swaps everything this chain holds (blocks, indexes, state, pool, rules, dev accounts) with `other`'s; each keeps
   * its own events and depths. The node's anvil_reset with `forking` serves another chain under the same object that
   * every reader, filter and listener holds, and swaps the start's back for a reset without it. Only on the writer.
   */
  exchange(other: EthChain): void {
    [this.pool, other.pool] = [other.pool, this.pool];
    [this.byHash, other.byHash] = [other.byHash, this.byHash];
    [this.headEditedRoot, other.headEditedRoot] = [other.headEditedRoot, this.headEditedRoot];
    [this.common_, other.common_] = [other.common_, this.common_];
    [this.mined, other.mined] = [other.mined, this.mined];
    [this.view_, other.view_] = [other.view_, this.view_];
    [this.headState, other.headState] = [other.headState, this.headState];
    [this.headVm, other.headVm] = [other.headVm, this.headVm];
    [this.accounts, other.accounts] = [other.accounts, this.accounts];
    [this.scheduled, other.scheduled] = [other.scheduled, this.scheduled];
    // The state readers answer through their chain (its head's edits): made anew for each.
    this.states = this.statesOf();
    other.states = other.statesOf();
  }

  /** The chain's first block: genesis, or a fork's fork block. */
  base(): MinedBlock {
    return this.mined[0]!;
  }

  /** The number of the chain's first block: 0, or a fork's fork block. */
  private get first(): bigint {
    return this.mined[0]?.number ?? 0n;
  }

  /** The parts `restore` takes (the node store is shared, not copied: encode it before the chain moves on). */
  parts(): ChainParts {
    const nodes = accountNodeMap(this.headState) as Map<string, Uint8Array> | undefined;
    if (nodes === undefined) throw new Error('the state is not kept in an in-memory node store');
    return { common: this.common, nodes, blocks: this.mined, pool: this.pool, accounts: this.accounts };
  }

  get chainId(): bigint {
    return this.common.chainId();
  }

  /** The newest mined block. */
  head(): MinedBlock {
    return this.mined[this.mined.length - 1]!;
  }

  blockByNumber(n: bigint): MinedBlock | undefined {
    const i = n - this.first;
    return i >= 0n && i < BigInt(this.mined.length) ? this.mined[Number(i)] : undefined;
  }

  blockByHash(hash: Uint8Array): MinedBlock | undefined {
    return this.byHash.block(hash);
  }

  /** A mined block by tag or number; undefined for a number beyond head (`pending` is the node's: EthNode.resolveBlock). */
  resolveMined(id: Exclude<BlockId, 'pending'>): MinedBlock | undefined {
    return resolveTag(id, this.head().number, (n) => this.blockByNumber(n), { safe: this.safeDepth, finalized: this.finalizedDepth });
  }

  /** Every mined block from `from` to head, in order (e.g. for an RLP export). */
  *blocks(from = 0n): IterableIterator<MinedBlock> {
    for (let i = Math.max(0, Number(from - this.first)); i < this.mined.length; i++) yield this.mined[i]!;
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

  /**
   * The rules of a block at this number and time, to read only (never change it): the chain's own Common without a
   * hardfork schedule (no copy: a transaction or header made with it copies it anyway), else commonAt's copy.
   */
  rulesAt(number: bigint, timestamp: bigint): Common {
    return this.scheduled ? this.commonAt(number, timestamp) : this.common;
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
    this.events.emit('blockSealed', mined);
    return mined;
  }

  /**
   * Cuts the chain back to block `number` (it becomes head): every later block leaves, with the indexes of
   * their hashes and transactions, and head's state is that block's (or `editedRoot`, head's root with
   * unmined edits, as a snapshot saw it). Only the node calls it, on its writer; it emits `blocksRemoved`.
   */
  async truncate(number: bigint, editedRoot?: Uint8Array): Promise<readonly MinedBlock[]> {
    if (number < this.first || number > this.head().number) throw new RangeError(`cannot cut the chain back to block ${number}: head is ${this.head().number}`);
    const removed = this.mined.splice(Number(number - this.first) + 1);
    this.byHash.forget(removed);
    this.headEditedRoot = editedRoot;
    await this.resetHeadState();
    return removed;
  }

  /**
   * Edits head's state (balances, code, nonces, storage) without mining: reads at latest and pending see the
   * edit at once, and the next sealed block commits it into its stateRoot. Only the node calls it, on its writer.
   */
  async editHead(edit: (state: MerkleStateManager) => Promise<void>): Promise<void> {
    try {
      await edit(this.headState);
      const root = await this.headState.getStateRoot();
      this.headEditedRoot = equalsBytes(root, (this.head().raw?.header ?? this.head().header).stateRoot) ? undefined : root;
    } catch (err) {
      await this.resetHeadState();
      throw err;
    }
  }

  /** Replaces the pool (a snapshot's revert, a loaded dump). */
  setPool(pool: readonly PendingTx[]): void {
    this.pool = [...pool];
  }

  /** Adds a transaction to the pool (its sender recovered once). */
  addPending(tx: TypedTransaction, knownSender?: Address): PendingTx {
    const entry: PendingTx = { tx, sender: knownSender ?? tx.getSenderAddress() };
    this.pool = [...this.pool, entry];
    return entry;
  }

  /** Takes the transactions of `hashes` out of the pool; gives those it held. */
  takePending(hashes: readonly Uint8Array[]): PendingTx[] {
    const { taken, kept } = partitionByHash(this.pool, hashes);
    if (taken.length > 0) this.pool = kept;
    return taken;
  }

  /** Appends a sealed block on head (built on head's state, or executed by importBlock); its transactions leave the pool. */
  append(mined: MinedBlock): void {
    this.mined.push(mined);
    this.headEditedRoot = undefined;
    if (this.pool.length > 0 && mined.txHashes.length > 0) this.pool = partitionByHash(this.pool, mined.txHashes).kept;
  }

  /**
   * The VM at head, whose state block building changes (the node's drafts; made on first use); hooks that watch
   * execution, such as the node log's, attach to it.
   */
  vmAtHead(): Promise<VM> {
    return (this.headVm ??= headVmOf(this.common, this.headState, this.view, this.scheduled));
  }

  /** Puts head's state back to head's root (with its edits): after a failed build or edit, and when head moves. */
  resetHeadState(): Promise<void> {
    return this.headState.setStateRoot(this.stateRootOf(this.head()), true);
  }

  /** True when blocks pick their hardfork by number and time (a chain with a schedule). */
  get hasSchedule(): boolean {
    return this.scheduled;
  }
}
