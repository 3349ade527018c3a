/**
 * EthChain: the engine of an `eth` network. It keeps blocks, transactions, receipts and a Merkle
 * Patricia state trie (every historical root stays readable), and a pending pool. It speaks
 * bigints, bytes and @ethereumjs objects; it knows nothing of JSON-RPC or hex strings.
 */
import { createBlock, type Block, type HeaderData } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, bytesToHex, equalsBytes, MapDB, ValueEncoding } from '@ethereumjs/util';
import { createVM, runBlock, type VM } from '@ethereumjs/vm';
import { CallVms } from '../exec/callVms.js';
import { ChainView } from './chainView.js';
import { HashIndex } from './hashIndex.js';
import { HeadStateManager } from '../state/headState.js';
import { speedUpInterpreter } from '../evm/index.js';
import { prepareCommon } from '../exec/common.js';
import { BlockDraft, nextHeaderData } from '../mining/draft.js';
import { minedBlock, storedReceipts } from './receipts.js';
import type { BlockId, ChainParts, DevAccount, EthChainOptions, GenesisArgs, MinedBlock, PendingTx, TxLookup } from './types.js';
import { ReadStates, VmPool } from '../exec/vmPool.js';

export type { ChainParts, EthChainOptions, GenesisArgs } from './types.js';
const key = (hash: Uint8Array) => bytesToHex(hash);

/** True when `common` has a hardfork schedule (imported chains): blocks then pick their hardfork. */
const hasSchedule = (common: Common) => common.hardforks().some((h) => Number(h.block ?? 0) > 0 || Number(h.timestamp ?? 0) > 0 || (h as { ttd?: unknown }).ttd != null);

export class EthChain {
  private pool: PendingTx[] = [];
  /** The pending block, built on first use after the pool or head changed. */
  private pending: Promise<MinedBlock> | undefined;
  /** Blocks and mined transactions by hash, indexed on lookup (a restored start indexes none). */
  private readonly byHash: HashIndex;
  private readonly safeDepth: bigint;
  private readonly finalizedDepth: bigint;
  /** Idle VMs of recently called blocks, and read-only states of recently read ones (see vmPool.ts). */
  private readonly vms = new VmPool({
    create: (block) => this.vmAt(block),
    // Without a hardfork schedule every block runs under the same rules: one pool of VMs, each
    // pointed at the block of its call (a root switch costs far less than a new VM).
    key: (block) => (this.scheduled ? key(block.hash) : 'any'),
    retarget: (vm, block) => vm.stateManager.setStateRoot(block.header.stateRoot),
    maxPerKey: 32,
  });
  private readonly reads = new ReadStates((block) => this.readOnlyState(block));
  /** Idle eth_call VMs (callVms.ts), made on first use. */
  private callVms: VmPool | undefined;
  private callReads: CallVms | undefined;

  private constructor(
    readonly common: Common,
    private readonly mined: MinedBlock[],
    /** The blockchain every VM of this chain sees (BLOCKHASH, header checks). */
    readonly view: ChainView,
    /** The state at head; only block building and importing write to it. */
    private readonly headState: MerkleStateManager,
    /** The VM at head (block building and importing), made on first use: a restored chain serving reads needs none. */
    private headVm: Promise<VM> | undefined,
    private readonly accounts: readonly DevAccount[],
    /** True when `common` has a hardfork schedule (imported chains): blocks pick their hardfork. */
    private readonly scheduled: boolean,
    opts: EthChainOptions,
  ) {
    this.byHash = new HashIndex(mined);
    this.safeDepth = BigInt(opts.safeDepth ?? 32);
    this.finalizedDepth = BigInt(opts.finalizedDepth ?? 64);
  }

  /** A chain holding only a genesis block; grow it with `importBlock` or `mineBlock` (a seed's chain: build/chainFromSeed.ts). */
  static async fromGenesis(args: GenesisArgs, opts: EthChainOptions = {}): Promise<EthChain> {
    const common = prepareCommon(args.common);
    const gHeader = args.genesisBlock?.header;
    const scheduled = hasSchedule(common);
    if (scheduled) common.setHardforkBy({ blockNumber: 0n, timestamp: gHeader?.timestamp ?? BigInt(args.header?.timestamp?.toString() ?? 0) });
    // Bytes values, set explicitly: storage tries are copies of this trie's options, and without it
    // they store every node as a hex string (hex conversions on every read and write, twice the memory).
    const trie = new MerklePatriciaTrie({ useKeyHashing: true, common, db: new MapDB(), valueEncoding: ValueEncoding.Bytes });
    const headState = new HeadStateManager({ common, trie, caches: new Caches() });
    await headState.generateCanonicalGenesis(args.state ?? {});
    const stateRoot = await headState.getStateRoot();
    let genesis = args.genesisBlock;
    if (genesis !== undefined && !equalsBytes(genesis.header.stateRoot, stateRoot)) {
      throw new Error(`genesis state root ${bytesToHex(stateRoot)} computed from the alloc differs from the genesis block's ${bytesToHex(genesis.header.stateRoot)}`);
    }
    genesis ??= createBlock({ header: { ...args.header, number: 0n, stateRoot }, withdrawals: common.isActivatedEIP(4895) ? [] : undefined }, { common });
    const mined: MinedBlock[] = [];
    const view = new ChainView(mined);
    const vm = await createVM({ common, stateManager: headState, blockchain: view });
    // Block building runs the same few contracts over and over: keep their jump analyses (not with
    // a hardfork schedule: the head VM then changes hardfork, and with it its opcode table).
    if (!scheduled) speedUpInterpreter(vm.evm);
    const chain = new EthChain(common, mined, view, headState, Promise.resolve(vm), args.accounts ?? [], scheduled, opts);
    chain.append(minedBlock(genesis, 0n, [], []));
    return chain;
  }

  /**
   * A chain rebuilt from saved parts (a chain image): no block is executed. Throws when head's state
   * root is not in `nodes` or blocks are misnumbered, so a broken chain image is never used (the
   * chain image checks that blocks chain up: their hashes come from their headers).
   */
  static async restore(parts: ChainParts, opts: EthChainOptions = {}): Promise<EthChain> {
    const common = prepareCommon(parts.common);
    const head = parts.blocks[parts.blocks.length - 1]?.header;
    if (head === undefined) throw new Error('a chain needs its genesis block');
    parts.blocks.forEach((m, i) => {
      if (m.number !== BigInt(i)) throw new Error(`block ${i} is numbered ${m.number}`);
    });
    const scheduled = hasSchedule(common);
    if (scheduled) common.setHardforkBy({ blockNumber: head.number, timestamp: head.timestamp });
    const trie = new MerklePatriciaTrie({ useKeyHashing: true, common, db: new MapDB(parts.nodes), valueEncoding: ValueEncoding.Bytes });
    const headState = new HeadStateManager({ common, trie, caches: new Caches() });
    await headState.setStateRoot(head.stateRoot);
    const mined: MinedBlock[] = [];
    const view = new ChainView(mined);
    const chain = new EthChain(common, mined, view, headState, undefined, parts.accounts, scheduled, opts);
    parts.blocks.forEach((m) => chain.append(m));
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
    const head = this.head().number;
    switch (id) {
      case 'latest':
        return this.head();
      case 'earliest':
        return this.mined[0];
      case 'safe':
        return this.blockByNumber(head > this.safeDepth ? head - this.safeDepth : 0n);
      case 'finalized':
        return this.blockByNumber(head > this.finalizedDepth ? head - this.finalizedDepth : 0n);
      default:
        return this.blockByNumber(id);
    }
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
   * A private copy of the state after `block` (a historical root of the shared node store).
   * Writes go to the shared store: wrap work in checkpoint()/revert().
   */
  async stateAt(block: MinedBlock): Promise<MerkleStateManager> {
    const state = this.headState.shallowCopy();
    await state.setStateRoot(block.header.stateRoot);
    return state;
  }

  /** A VM on a copy of the state after `block`, whose BLOCKHASH answers from this chain (for eth_call and friends). */
  async vmAt(block: MinedBlock): Promise<VM> {
    const common = this.commonAt(block.number, block.header.timestamp);
    const stateManager = await this.stateAt(block);
    return createVM({ common, stateManager, blockchain: this.view });
  }

  /**
   * Runs `fn` with a VM at `block`'s post-state, reused across calls and leased to one call at a time.
   * `fn` must undo its writes with checkpoint()/revert() (a VM left with a checkpoint open is dropped).
   */
  withVmAt<T>(block: MinedBlock, fn: (vm: VM) => Promise<T>): Promise<T> {
    return this.vms.use(block, fn);
  }

  /**
   * Runs `fn` with a call VM at `block`'s post-state (callVms.ts: writes go to a private overlay over
   * reads shared per root), leased to one call at a time; `fn` must undo its writes with checkpoint()/revert().
   */
  withCallVmAt<T>(block: MinedBlock, fn: (vm: VM) => Promise<T>): Promise<T> {
    this.callVms ??= this.callVmPool();
    return this.callVms.use(block, fn);
  }

  /** Reads of committed state shared per root (accounts, slots, code), for call VMs and the state readers; made on first use. */
  private rootReads(): CallVms {
    const head = this.headState as unknown as { _prefixCodeHashes: boolean; keccakFunction: (b: Uint8Array) => Uint8Array };
    const commonAt = (block: MinedBlock) => this.commonAt(block.number, block.header.timestamp);
    return (this.callReads ??= new CallVms({ nodes: this.parts().nodes, prefixCodeHashes: head._prefixCodeHashes, keccak: head.keccakFunction, view: this.view, commonAt }));
  }

  private callVmPool(): VmPool {
    const calls = this.rootReads();
    return new VmPool({
      create: (block) => calls.create(block),
      key: (block) => (this.scheduled ? key(block.hash) : 'any'),
      retarget: (vm, block) => calls.retarget(vm, block),
      reusable: (vm) => calls.reusable(vm),
      maxPerKey: 32,
    });
  }

  /** A shared state after `block` for reads only (no caches, so nothing is ever written back): never write to it. */
  readStateAt(block: MinedBlock): Promise<MerkleStateManager> {
    return this.reads.at(block);
  }

  private async readOnlyState(block: MinedBlock): Promise<MerkleStateManager> {
    const trie = this.headState['_trie'].shallowCopy(false);
    const state = new MerkleStateManager({ common: this.headState.common, trie, prefixCodeHashes: this.headState['_prefixCodeHashes'], prefixStorageTrieKeys: this.headState['_prefixStorageTrieKeys'] });
    await state.setStateRoot(block.header.stateRoot);
    return state;
  }

  /** The Common of a block at this number and time (a copy; with the block's hardfork for scheduled chains). */
  commonAt(number: bigint, timestamp: bigint): Common {
    const common = this.common.copy();
    if (this.scheduled) common.setHardforkBy({ blockNumber: number, timestamp });
    return common;
  }

  /** The account at `address` after `block` (shared with other reads of that root: never change it). */
  async getAccount(address: Address, block: MinedBlock): Promise<Account | undefined> {
    return this.rootReads().readsAt(block).account(address) ?? undefined;
  }

  /** The code at `address` after `block` (shared: never change it). */
  async getCode(address: Address, block: MinedBlock): Promise<Uint8Array> {
    const reads = this.rootReads().readsAt(block);
    const account = reads.account(address);
    return account === null || !account.isContract() ? new Uint8Array() : reads.code(account.codeHash);
  }

  /** The value of a storage slot (32-byte key) as stored: minimal bytes, empty for zero (shared: never change it). */
  async getStorage(address: Address, slot: Uint8Array, block: MinedBlock): Promise<Uint8Array> {
    const reads = this.rootReads().readsAt(block);
    const account = reads.account(address);
    return account === null ? new Uint8Array() : reads.slot(account, slot, Buffer.from(address.bytes).toString('hex'));
  }

  /**
   * Executes a foreign block on head (no generation) and appends it: the computed state root,
   * receipts root, gas used and bloom must equal the header's, or this throws naming the block.
   * With a hardfork schedule the block runs under its own hardfork.
   */
  async importBlock(block: Block): Promise<MinedBlock> {
    const vm = await this.vmAtHead();
    const parent = this.head();
    const n = block.header.number;
    let senders: Address[];
    try {
      senders = block.transactions.map((tx) => tx.getSenderAddress());
    } catch (err) {
      throw new Error(`block ${n}: ${(err as Error).message}`);
    }
    let result;
    try {
      result = await runBlock(vm, { block, setHardfork: this.scheduled });
    } catch (err) {
      // runBlock reverts its checkpoint, but state flushed for the root check can survive in the
      // caches: go back to head's root explicitly, so a rejected block leaves no trace.
      await this.headState.setStateRoot(parent.block.header.stateRoot, true);
      throw new Error(`block ${n} does not execute to its header: ${(err as Error).message}`);
    }
    const mined = minedBlock(block, parent.totalDifficulty, senders, storedReceipts(block, senders, result.receipts, result.results));
    this.append(mined);
    return mined;
  }

  /** Starts a block on head (for seeding and mining): add transactions to the draft, then seal it. */
  async draftBlock(header: { timestamp?: bigint; coinbase?: Address } = {}): Promise<BlockDraft> {
    const vm = await this.vmAtHead();
    const parent = this.head();
    const timestamp = header.timestamp ?? parent.block.header.timestamp + 12n;
    if (this.scheduled) vm.common.setHardforkBy({ blockNumber: parent.number + 1n, timestamp });
    return BlockDraft.open(vm, parent, nextHeaderData(parent.block, timestamp, header.coinbase), (mined) => this.sealed(mined));
  }

  /** Adds a transaction to the pending pool (its sender recovered once) and rebuilds the pending block. */
  async addPending(tx: TypedTransaction, knownSender?: Address): Promise<PendingTx> {
    const entry: PendingTx = { tx, sender: knownSender ?? tx.getSenderAddress() };
    this.pool = [...this.pool, entry];
    this.pending = undefined;
    return entry;
  }

  /** Mines the pool into a new block (transactions that no longer fit or apply stay out) and returns it. */
  async mineBlock(header: { timestamp?: bigint; coinbase?: Address } = {}): Promise<MinedBlock> {
    const draft = await this.draftBlock(header);
    const left: PendingTx[] = [];
    for (const p of this.pool) {
      try {
        await draft.add(p.tx, p.sender);
      } catch {
        left.push(p);
      }
    }
    this.pool = left;
    return draft.seal();
  }

  private async sealed(mined: MinedBlock): Promise<void> {
    this.append(mined);
    const included = new Set(mined.block.transactions.map((tx) => key(tx.hash())));
    this.pool = this.pool.filter((p) => !included.has(key(p.tx.hash())));
  }

  private append(mined: MinedBlock): void {
    this.mined.push(mined);
    this.pending = undefined;
  }

  private vmAtHead(): Promise<VM> {
    return (this.headVm ??= createVM({ common: this.common, stateManager: this.headState, blockchain: this.view }));
  }

  /**
   * A draft of the next block on a copy of head's state, which the chain never takes: the pending
   * block is built in one, and callers may run transactions in one to see what they would do next.
   */
  async pendingDraft(): Promise<BlockDraft> {
    const parent = this.head();
    const timestamp = parent.block.header.timestamp + 12n;
    const common = this.commonAt(parent.number + 1n, timestamp);
    const vm = await createVM({ common, stateManager: await this.stateAt(parent), blockchain: this.view });
    return BlockDraft.open(vm, parent, nextHeaderData(parent.block, timestamp, undefined), async () => {});
  }

  /** Builds the pending block from the pool on a copy of head's state. */
  private async buildPending(): Promise<MinedBlock> {
    const draft = await this.pendingDraft();
    for (const p of this.pool) {
      try {
        await draft.add(p.tx, p.sender);
      } catch {
        // A transaction that does not apply now (nonce gap, funds) waits, as in a real pool.
      }
    }
    return draft.seal();
  }
}
