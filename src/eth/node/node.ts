/**
 * The node of an eth network: its one door for writes. It owns the pool's changes, the pending block, the miner
 * (mining settings and time), snapshots, state edits, impersonation, the wallet's sends and the events listeners
 * hear. Every write is one of its commands: it takes the writer itself, and ends in one `commit()` that persists (a
 * data directory's store) and then emits (ChainEvents). The chain below keeps blocks, indexes and state and answers
 * reads; block building (mining/) is a function of parent, transactions and header fields. Nothing else takes the
 * writer: methods, the `start()` handle, the in-process provider and the persistence code call these commands.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { EthChain } from '../engine/chain/chain.js';
import { InvalidArgument } from '../../errors.js';
import type { DropReason } from '../engine/chain/events.js';
import type { BlockId, MinedBlock, MineResult, NextHeader, PendingTx, TxLookup } from '../engine/chain/types.js';
import type { Snapshot, Snapshots } from '../engine/control/snapshots.js';
import type { StateEdit } from '../engine/control/stateEdits.js';
import type { Miner } from '../engine/mining/miner.js';
import { startClock } from '../engine/evm/callClock.js';
import { prepareLogsAhead } from '../engine/evm/logsAhead.js';
import { openHeadDraft } from '../engine/mining/pending.js';
import { fillFromPool } from '../engine/mining/pool.js';
import type { Admission, PoolSettings } from '../engine/mining/send.js';
import type { ChainStore } from '../engine/persist/dataDir/ethStore.js';
import type { Impersonation } from '../engine/wallet/impersonation.js';
import type { SendRequest } from '../engine/wallet/fill.js';
import { buildTransaction, unsignedTransaction } from '../engine/wallet/sendRequest.js';
import { decodeRawTransaction } from '../engine/mining/rawTx.js';
import { GETH_POOL_LIMITS } from '../engine/mining/poolLimits.js';
import { buildPayload, type BuiltPayload, type PayloadAttributes } from '../engine/mining/payload.js';
import { encodeEthDump, type EthDump } from '../engine/persist/dump/ethDump.js';
import { adoptDumpControls, planEthLoad, type EthLoadResult } from '../engine/persist/dump/ethLoad.js';
import { anvilStateEdit, type AnvilState } from '../engine/persist/dump/anvilState.js';
import { NodeEvents } from './events.js';
import { sendNow, type SendResult, type SendSteps } from './send.js';
import { PendingBlock } from './pending.js';
import { SerialWriter } from './writer.js';

/** Lets other requests (reads of every network, this one's too) be served between two blocks of a long mining call. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What a node is made of (network.ts builds them). */
export interface NodeParts {
  readonly chain: EthChain;
  readonly miner: Miner;
  readonly snapshots: Snapshots;
  readonly impersonation: Impersonation;
  readonly pool: PoolSettings;
  readonly admission: Admission;
  /** A data directory's store: each sealed block and each command's changes are written there before they are announced. */
  readonly store?: ChainStore;
}

export class EthNode {
  readonly chain: EthChain;
  readonly miner: Miner;
  readonly snapshots: Snapshots;
  readonly impersonation: Impersonation;
  /** What the pool accepts beyond geth's rules (anvil_setMinGasPrice changes it). */
  readonly pool: PoolSettings;
  readonly admission: Admission;
  private readonly writer = new SerialWriter();
  private readonly store: ChainStore | undefined;
  /** Events of the command running, emitted by its commit (after the store has what they announce). */
  private readonly events: NodeEvents;
  private readonly pending: PendingBlock;
  /** The chain as served at start, kept while a reset with `forking` serves another in `chain` (EthChain.exchange). */
  private started: EthChain | undefined;

  constructor(parts: NodeParts) {
    ({ chain: this.chain, miner: this.miner, snapshots: this.snapshots, impersonation: this.impersonation } = parts);
    ({ pool: this.pool, admission: this.admission, store: this.store } = parts);
    this.events = new NodeEvents(this.chain.events);
    this.pending = new PendingBlock(this.chain, () => this.miner.nextHeader());
    this.miner.onTick(() => {
      void this.mineBlock().catch((err: unknown) => console.error(`devgate: interval mining failed: ${err instanceof Error ? err.message : String(err)}`));
    });
  }

  // ---- reads that involve the pool or the pending block (everything else: the chain) ----

  /**
   * A block by tag or number; undefined for a number beyond head. `pending` is the pending block (built lazily, kept
   * until head, pool or the next header change).
   */
  async resolveBlock(id: BlockId): Promise<MinedBlock | undefined> {
    return id === 'pending' ? this.pending.block() : this.chain.resolveMined(id);
  }

  /** The pending block: what would be mined now from the pool. */
  pendingBlock(): Promise<MinedBlock> {
    return this.pending.block();
  }

  /** A block by hash (mined blocks only). */
  blockByHash(hash: Uint8Array): MinedBlock | undefined {
    return this.chain.blockByHash(hash);
  }

  head(): MinedBlock {
    return this.chain.head();
  }

  /** A transaction by hash: mined (block and index) or pending. */
  transaction(hash: Uint8Array): TxLookup | undefined {
    return this.chain.transaction(hash);
  }

  /** The pool, in order. */
  pendingTransactions(): readonly PendingTx[] {
    return this.chain.pendingTransactions();
  }

  // ---- the write path ----

  /**
   * Runs `job` on the writer, then commits: the store writes what it changed, then the events it queued are emitted,
   * failed or not (a failed command changes no chain data, and what it did before failing is kept as anvil keeps it).
   */
  private command<T>(job: () => Promise<T> | T): Promise<T> {
    return this.writer.run(async () => {
      try {
        return await job();
      } finally {
        await this.commit();
      }
    });
  }

  /** Persists (the store, if any), then emits what the command queued. */
  private async commit(): Promise<void> {
    try {
      await this.store?.commit();
    } finally {
      this.events.flush();
    }
  }

  /** Appends a sealed block: written to the store first (a throw leaves head as it was), then on the chain, then announced. */
  private async seal(mined: MinedBlock): Promise<void> {
    await this.store?.sealBlock(mined);
    this.chain.append(mined);
    this.miner.blockMined();
    this.events.queue('blockSealed', mined);
    this.events.flush();
  }

  /**
   * Mines the pool into a new block now (on the writer): transactions that do not apply (nonce gap, funds, gas) stay
   * in the pool and are listed in `skipped` with the reason; a failure of the block itself throws, leaving head as it was.
   */
  private async mineNow(header?: NextHeader): Promise<MineResult> {
    const draft = await openHeadDraft(this.chain, this.miner.blockHeader(header));
    // Transactions being mined yield to other requests (of every network) by EVM work done, as calls do (#25): no
    // deadline, a turn of the event loop every few ms. An empty block runs none and starts no clock.
    if (this.chain.pendingTransactions().length > 0) startClock(draft.vm, Infinity);
    // Their logs are hashed and encoded for the bloom and the receipt trie a slice at a time too (evm/logsAhead.ts).
    prepareLogsAhead(draft.vm);
    try {
      const skipped = await fillFromPool(draft, this.chain.pendingTransactions());
      const block = await draft.seal();
      await this.seal(block);
      return { block, skipped };
    } catch (err) {
      await this.chain.resetHeadState();
      throw err;
    }
  }

  /** Takes transactions out of the pool without mining them, and says why (txDropped). */
  private drop(hashes: readonly Uint8Array[], reason: DropReason): PendingTx[] {
    const dropped = this.chain.takePending(hashes);
    if (dropped.length > 0)
      this.events.queue(
        'txDropped',
        dropped.map((p) => ({ tx: p.tx, reason })),
      );
    return dropped;
  }

  /** Cuts the chain back to block `number` (and head's edits to `editedRoot`); the store and the listeners hear of the blocks that left. */
  private async truncate(number: bigint, editedRoot?: Uint8Array): Promise<void> {
    const removed = await this.chain.truncate(number, editedRoot);
    if (removed.length === 0) return;
    this.store?.removed(removed[0]!.number);
    this.events.queue('blocksRemoved', removed);
  }

  // ---- commands: mining ----

  /** Mines one block (the pool's executable transactions, `header`'s fields or the controls'). */
  mineBlock(header?: NextHeader): Promise<MinedBlock> {
    return this.command(async () => (await this.mineNow(header)).block);
  }

  /**
   * Mines `count` blocks (the first at `timestamp` or the next timestamp; with `intervalSeconds`, each later one that
   * many seconds after the one before). The first takes every executable pool transaction. Between blocks other
   * requests are served (the writer stays held, so no other write comes between); a call whose work (blocks + pool
   * transactions) is past the limit is refused.
   */
  mine(count = 1n, intervalSeconds?: bigint, timestamp?: bigint): Promise<MineResult[]> {
    this.miner.checkMine(count, intervalSeconds, timestamp);
    return this.command(async () => {
      this.miner.checkMine(count, intervalSeconds, timestamp);
      if (timestamp !== undefined) this.miner.setNextBlockTimestamp(timestamp);
      const results: MineResult[] = [];
      for (let i = 0n; i < count; i++) {
        if (i > 0n) await yieldToOthers();
        const header = this.miner.nextHeader();
        if (i > 0n && intervalSeconds !== undefined && intervalSeconds > 0n) header.timestamp = this.chain.head().header.timestamp + intervalSeconds;
        results.push(await this.mineNow(header));
      }
      return results;
    });
  }

  // ---- commands: the pool ----

  /**
   * Sends a transaction: admitted, pooled, and with automine mined at once (with every other executable pool
   * transaction). A transaction the automined block cannot take for a reason other than a nonce gap is taken out of
   * the pool again and refused with that reason; one waiting behind a nonce gap stays queued, as in geth.
   */
  send(tx: TypedTransaction | (() => Promise<TypedTransaction>), knownSender?: Address): Promise<SendResult> {
    return this.command(async () => sendNow(this.sendSteps, typeof tx === 'function' ? await tx() : tx, knownSender));
  }

  /**
   * Decodes a raw transaction under the next block's rules (and the fee cap), and sends it. The pool's size limit is
   * checked on the raw bytes as they decode, where geth's pool checks it (before the fields and the signature): a
   * 1.5 MB transaction is refused before it is built, hashed and its sender recovered (issue 25's txpool attack).
   */
  sendRaw(raw: Uint8Array): Promise<SendResult> {
    const common = this.chain.rulesAt(this.chain.head().number + 1n, this.miner.nextHeader().timestamp!);
    const limits = this.pool.limits?.() ?? GETH_POOL_LIMITS;
    return this.send(decodeRawTransaction(raw, common, this.pool.txFeeCap, limits.txpoolMaxTxBytes));
  }

  /** eth_sendTransaction: fills (nonce from the pool), signs with a dev account's key or impersonates, and sends, in one command. */
  sendRequest(req: SendRequest): Promise<SendResult> {
    return this.send(() => buildTransaction(this.chain, this.miner, req, this.impersonation, true), req.from);
  }

  /** eth_signTransaction: fills and signs with a dev account's key, on the writer (no send takes the same nonce between); nothing is sent. */
  signRequest(req: SendRequest): Promise<TypedTransaction> {
    return this.command(() => buildTransaction(this.chain, this.miner, req, undefined, false));
  }

  /** anvil's eth_sendUnsignedTransaction: fills and sends from any `from` with the stand-in signature. */
  sendUnsigned(req: SendRequest): Promise<SendResult> {
    return this.send(() => unsignedTransaction(this.chain, this.miner, req), req.from);
  }

  /** Takes transactions out of the pool without mining them (anvil_dropTransaction); gives those it held. */
  dropTransactions(hashes: readonly Uint8Array[]): Promise<PendingTx[]> {
    return this.command(() => this.drop(hashes, 'dropped'));
  }

  /** Empties the pool (anvil_dropAllTransactions). */
  async dropAllTransactions(): Promise<void> {
    await this.command(() =>
      this.drop(
        this.chain.pendingTransactions().map((p) => p.tx.hash()),
        'dropped',
      ),
    );
  }

  // ---- commands: state edits, snapshots ----

  /** Edits head's state without mining: reads at latest and pending see it at once, the next block commits it. */
  editState(edit: StateEdit): Promise<void> {
    return this.command(() => this.chain.editHead(edit));
  }

  /** Takes a snapshot (after every write asked for before it); gives its id. */
  snapshot(): Promise<bigint> {
    return this.command(() => this.snapshots.take());
  }

  /** Reverts to snapshot `id` and deletes it and every later one; false (and nothing changed) for an unknown id. */
  revert(id: bigint): Promise<boolean> {
    return this.command(async () => {
      const snap = this.snapshots.pop(id);
      if (snap === undefined) return false;
      await this.restore(snap);
      return true;
    });
  }

  /**
   * Goes back to the chain as served at start (its seeded blocks, pool and mining settings); forgets every snapshot.
   * With `replacement` (anvil_reset / hardhat_reset with `forking`: a fork built off the writer), serves that chain
   * instead, at start's mining settings, and keeps the start's chain for a later reset without one; `swapped` runs on
   * the writer as the chains change places (whatever else follows the served chain changes with it).
   */
  reset(replacement?: EthChain, swapped?: () => void): Promise<void> {
    if (replacement !== undefined && this.store !== undefined) throw new InvalidArgument('a network with a data directory cannot be reset to a fork');
    return this.command(async () => {
      const initial = this.snapshots.reset();
      if (this.started !== undefined) {
        // Serving a reset's fork: its local blocks leave (listeners hear), and the start's chain comes back.
        await this.truncate(this.chain.base().number);
        this.chain.exchange(this.started);
        this.started = undefined;
      }
      await this.restore(initial);
      if (replacement === undefined) {
        swapped?.();
        return;
      }
      this.chain.exchange(replacement);
      this.started = replacement;
      swapped?.();
    });
  }

  private async restore(snap: Snapshot): Promise<void> {
    await this.truncate(snap.head, snap.editedRoot);
    this.chain.setPool(snap.pool);
    this.miner.restore(snap.miner);
    if (snap.impersonation !== undefined) this.impersonation.restore(snap.impersonation);
  }

  /**
   * Makes the controls that change outside the writer (mining mode, time, impersonation, the pool's minimum tip)
   * durable: an empty command, whose commit writes them.
   */
  saveControls(): Promise<void> {
    return this.command(() => undefined);
  }

  /** Resolves once every command asked for so far has finished. */
  idle(): Promise<void> {
    return this.writer.idle();
  }

  /** Stops interval mining for good and waits for the commands under way (the network closes). */
  async close(): Promise<void> {
    this.miner.close();
    await this.writer.idle();
  }

  /** The steps of a send, for send.ts (the node's private writes, lent to the command running). */
  private get sendSteps(): SendSteps {
    return {
      chain: this.chain,
      miner: this.miner,
      admission: this.admission,
      pool: (entry) => {
        this.chain.addPending(entry.tx, entry.sender);
        this.events.queue('txPooled', [entry]);
      },
      drop: (hashes, reason) => this.drop(hashes, reason),
      mine: () => this.mineNow(),
    };
  }

  /**
   * testing_buildBlockV1: builds a block on head (`parentHash` must be head's) from payload attributes, without adding
   * it to the chain; `raws` undefined takes the pool's executable transactions. On the writer: head and pool hold still.
   */
  buildPayload(parentHash: Uint8Array, attrs: PayloadAttributes, raws: readonly Uint8Array[] | undefined, extraData: Uint8Array): Promise<BuiltPayload> {
    return this.command(async () => {
      const common = this.chain.commonAt(this.chain.head().number + 1n, attrs.timestamp);
      const txs = raws?.map((raw) => decodeRawTransaction(raw, common));
      return buildPayload(this.chain, parentHash, attrs, txs, extraData);
    });
  }

  // ---- commands of the persistence code: dump, load, anvil state ----

  dumpState(network: string): Promise<Uint8Array> {
    return this.command(() => encodeEthDump(network, this));
  }

  loadDump(dump: EthDump): Promise<EthLoadResult> {
    return this.command(async () => {
      const { keep, from, result } = planEthLoad(this, dump);
      await this.truncate(keep);
      // Each block through the store as mined blocks go: a data directory keeps it before it joins the chain.
      for (const m of dump.parts.blocks.slice(from)) {
        await this.store?.sealBlock(m);
        this.chain.append(m);
        this.events.queue('blockSealed', m);
      }
      // Head's working state moves to the loaded head's root (or its edited root): the appended blocks were not built here.
      await this.chain.truncate(this.chain.head().number, dump.editedRoot);
      this.chain.setPool(dump.parts.pool);
      adoptDumpControls(this, dump);
      return result;
    });
  }

  applyAnvilState(state: AnvilState): Promise<void> {
    return this.editState(anvilStateEdit(state));
  }
}
