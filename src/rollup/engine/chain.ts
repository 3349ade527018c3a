/**
 * RollupChain: the engine of a Starknet-style rollup network. It keeps blocks with their statuses,
 * transactions and receipts, and the state (accounts, nonces, fee-token balances, storage). It does
 * not run Cairo: transactions are simulated by documented rules (docs/rollup.md).
 * Time comes from a Clock; interval production and time-based L1 acceptance happen lazily in
 * `sync()`, which every public method runs first, so a manual clock drives them deterministically.
 */
import type { Clock } from '../../clock.js';
import { DevgateError, InvalidArgument, RollupError } from '../../errors.js';
import { findClass } from './classes.js';
import { RollupEvents } from './events.js';
import { applyTransaction, submitError } from './execute.js';
import { MAX_CATCH_UP_BLOCKS, maxBig, type RollupChainParts, type RollupConfig, type RollupMark, type TxLocation } from './chainTypes.js';
import { blockHash, stateCommitment } from './hash.js';
import { JournaledMap } from './journal.js';
import { acceptNewestReady, acceptUpTo } from './l1Acceptance.js';
import { type SimulatedTx, simulateTransactions } from './simulate.js';
import type { BlockId, ExecutedTx, FeeEstimate, Felt, GasPrices, OutcomeInput, PendingBlock, RollupState, RollupTransaction, SealedBlock } from './types.js';

export { MAX_CATCH_UP_BLOCKS } from './chainTypes.js';
export type { RollupChainParts, RollupConfig, RollupMark, TxLocation } from './chainTypes.js';

const felt = (n: bigint) => '0x' + n.toString(16);

export class RollupChain {
  private cfg: RollupConfig;
  /** L1 gas prices of the blocks after the pending one (devnet_setGasPrice). */
  private nextGasPrices: GasPrices | undefined;
  private readonly blocks: SealedBlock[] = [];
  private readonly byHash = new JournaledMap<Felt, SealedBlock>();
  private readonly txs = new JournaledMap<Felt, TxLocation>();
  private pendingTxs: ExecutedTx[] = [];
  private pendingState: RollupState;
  private anchorSec = 0n;
  private anchorMs: number;
  private nextSealMs: number;
  private l1Head: bigint | undefined;
  /** What happens on the chain, for subscriptions (blocks sealed, statuses changed, transactions added). */
  readonly events = new RollupEvents();

  constructor(
    config: RollupConfig,
    private readonly clock: Clock,
    genesisState: RollupState,
  ) {
    this.cfg = config;
    this.pendingState = genesisState;
    this.anchorMs = clock.now();
    // No interval sealing while a seed is applied: startClock() starts the schedule.
    this.nextSealMs = Number.POSITIVE_INFINITY;
  }

  get config(): RollupConfig {
    return this.cfg;
  }

  /**
   * The chain as parts (shared, not copied: encode them before the chain moves on). The time anchor is moved to the
   * last whole second elapsed (the same chain time at every later reading), so a chain restored from them goes on
   * from the time it has now, not from its last anchor.
   */
  parts(): RollupChainParts {
    const { blocks, byHash, txs, pendingTxs, pendingState, nextSealMs, l1Head, nextGasPrices } = this;
    const whole = Math.max(0, Math.floor((this.clock.now() - this.anchorMs) / 1000));
    const [anchorSec, anchorMs] = [this.anchorSec + BigInt(whole), this.anchorMs + 1000 * whole];
    const gas = { gasPrices: this.cfg.gasPrices, ...(nextGasPrices === undefined ? {} : { nextGasPrices }) };
    return { blocks, byHash, txs, pendingTxs, pendingState, anchorSec, anchorMs, nextSealMs, l1Head, ...gas };
  }

  /** Takes over the blocks, transactions, pending block and time of `parts` (a loaded dump; restored as `restore` does). */
  adopt(parts: RollupChainParts): void {
    const other = RollupChain.restore(this.config, this.clock, parts);
    this.blocks.splice(0, this.blocks.length, ...other.blocks);
    this.byHash.clear();
    for (const [hash, b] of other.byHash) this.byHash.set(hash, b);
    this.txs.clear();
    for (const [hash, loc] of other.txs) this.txs.set(hash, loc);
    ({
      pendingTxs: this.pendingTxs,
      pendingState: this.pendingState,
      anchorSec: this.anchorSec,
      anchorMs: this.anchorMs,
      nextSealMs: this.nextSealMs,
      l1Head: this.l1Head,
      cfg: this.cfg,
      nextGasPrices: this.nextGasPrices,
    } = other);
  }

  /**
   * A chain rebuilt from parts, as if it had been built now: every clock reading in them (the time
   * anchor, the next seal, when blocks were sealed) moves by the same amount, to this clock's now.
   */
  static restore(config: RollupConfig, clock: Clock, parts: RollupChainParts): RollupChain {
    const chain = new RollupChain(config, clock, parts.pendingState);
    const shift = (ms: number) => ms + (chain.anchorMs - parts.anchorMs);
    // Blocks are copied (their status changes), each once: the chain, byHash and txs share them.
    const copies = new Map<SealedBlock, SealedBlock>();
    const copy = (b: SealedBlock) => copies.get(b) ?? copies.set(b, { ...b, sealedAtMs: shift(b.sealedAtMs) }).get(b)!;
    for (const b of parts.blocks) chain.blocks.push(copy(b));
    for (const [hash, b] of parts.byHash) chain.byHash.set(hash, copy(b));
    for (const [hash, loc] of parts.txs) chain.txs.set(hash, 'block' in loc ? { block: copy(loc.block), index: loc.index } : loc);
    chain.pendingTxs = [...parts.pendingTxs];
    chain.anchorSec = parts.anchorSec;
    chain.nextSealMs = shift(parts.nextSealMs);
    chain.l1Head = parts.l1Head;
    if (parts.gasPrices !== undefined) chain.cfg = { ...config, gasPrices: parts.gasPrices };
    chain.nextGasPrices = parts.nextGasPrices;
    return chain;
  }

  // ---- time and automatic progress ----

  /** Chain time in seconds at a clock reading: the anchor plus the elapsed whole seconds. */
  private chainTimeAt(ms: number): bigint {
    return this.anchorSec + BigInt(Math.floor((ms - this.anchorMs) / 1000));
  }

  /** The timestamp a block sealed now would get (never before its parent's). */
  now(): bigint {
    const t = this.chainTimeAt(this.clock.now());
    const parent = this.blocks.at(-1)?.timestamp ?? 0n;
    return t > parent ? t : parent;
  }

  /** Starts the chain's clock: chain time continues from `timestamp` (the seed's head). */
  startClock(timestamp: bigint): void {
    this.anchorSec = timestamp;
    this.anchorMs = this.clock.now();
    this.nextSealMs = this.anchorMs + (this.config.blockTimeMs ?? 0);
  }

  /** Seals the blocks of elapsed intervals and accepts on L1 what the time rule accepts. */
  sync(): void {
    const now = this.clock.now();
    const step = this.config.blockTimeMs;
    if (step !== undefined) {
      let sealed = 0;
      while (this.nextSealMs <= now) {
        if (sealed++ >= MAX_CATCH_UP_BLOCKS) {
          this.nextSealMs += Math.floor((now - this.nextSealMs) / step + 1) * step;
          break;
        }
        this.seal(this.nextSealMs);
        this.nextSealMs += step;
      }
    }
    const rule = this.config.l1Acceptance;
    if (rule.kind === 'time') this.emitAccepted(acceptNewestReady(this.blocks, (b) => b.sealedAtMs + rule.delayMs <= now));
  }

  /** Tells the chain its L1 network's head; blocks that rule `blocks` accepts become ACCEPTED_ON_L1. */
  observeL1Head(head: bigint): void {
    const rule = this.config.l1Acceptance;
    this.l1Head = head;
    if (rule.kind !== 'blocks') return;
    for (const b of this.blocks) if (b.status === 'ACCEPTED_ON_L2' && b.l1Anchor === undefined) b.l1Anchor = head;
    this.emitAccepted(acceptNewestReady(this.blocks, (b) => b.l1Anchor !== undefined && head >= b.l1Anchor + BigInt(rule.blocks)));
  }

  /**
   * The L1 block that accepted block `number` under the rule `blocks`: the first L1 block at which the rule holds
   * for it (its L1 anchor + `blocks`), once the block is ACCEPTED_ON_L1 and the L1 head has reached that block.
   * Undefined under another rule, for a block not accepted, or one accepted by hand before its L1 block came.
   */
  l1AcceptedBy(number: bigint): bigint | undefined {
    const rule = this.config.l1Acceptance;
    const b = this.blocks[Number(number)];
    if (rule.kind !== 'blocks' || b === undefined || b.status !== 'ACCEPTED_ON_L1' || b.l1Anchor === undefined) return undefined;
    const at = b.l1Anchor + BigInt(rule.blocks);
    return this.l1Head !== undefined && this.l1Head >= at ? at : undefined;
  }

  /** Tells listeners of blocks just accepted on L1 (src/rollup/engine/l1Acceptance.ts picks them). */
  private emitAccepted(accepted: SealedBlock[]): SealedBlock[] {
    if (accepted.length > 0) this.events.emit('statusChanged', accepted);
    return accepted;
  }

  // ---- reads ----

  /** The newest sealed block on the chain. */
  head(): SealedBlock {
    this.sync();
    return this.blocks.at(-1)!;
  }

  /** The block being filled. */
  pending(): PendingBlock {
    this.sync();
    const head = this.blocks.at(-1)!;
    const c = this.config;
    return {
      parentHash: head.hash,
      timestamp: this.now(),
      sequencerAddress: c.sequencerAddress,
      gasPrices: c.gasPrices,
      starknetVersion: c.starknetVersion,
      transactions: this.pendingTxs,
    };
  }

  /** The block a block id means; `pending` with nothing pending is the latest block. Undefined: no such block. */
  block(id: BlockId): SealedBlock | PendingBlock | undefined {
    this.sync();
    if ('hash' in id) return this.byHash.get(id.hash);
    if ('number' in id) return id.number < BigInt(this.blocks.length) ? this.blocks[Number(id.number)] : undefined;
    if (id.tag === 'pending' && this.pendingTxs.length > 0) return this.pending();
    return this.blocks.at(-1);
  }

  /** A transaction with its block; undefined when unknown or still pending (no receipt yet). */
  receipt(hash: Felt): { tx: ExecutedTx; block: SealedBlock } | undefined {
    this.sync();
    const loc = this.txs.get(hash);
    if (loc === undefined || 'pendingIndex' in loc) return undefined;
    return { tx: loc.block.transactions[loc.index]!, block: loc.block };
  }

  /** A transaction wherever it is: in a sealed block (chain or rejected) or pending (no block). */
  transaction(hash: Felt): { tx: ExecutedTx; block?: SealedBlock } | undefined {
    this.sync();
    const loc = this.txs.get(hash);
    if (loc === undefined) return undefined;
    return 'pendingIndex' in loc ? { tx: this.pendingTxs[loc.pendingIndex]! } : { tx: loc.block.transactions[loc.index]!, block: loc.block };
  }

  /** Whether a transaction is waiting in the pending block. */
  isPending(hash: Felt): boolean {
    this.sync();
    const loc = this.txs.get(hash);
    return loc !== undefined && 'pendingIndex' in loc;
  }

  /** The state after a block (or after the pending transactions). */
  stateAt(block: SealedBlock | PendingBlock): RollupState {
    return 'state' in block ? block.state : this.pendingState;
  }

  // ---- transactions and fees ----

  /** Whether a class is declared after `block` (the seed's classes, then DECLARE transactions up to it), or by `extra`. */
  declaredIn(block: SealedBlock | 'pending', extra: ReadonlySet<Felt> = new Set()): (classHash: Felt) => boolean {
    return (h) => {
      const blocks = block === 'pending' ? [...this.blocks, { transactions: this.pendingTxs }] : this.blocks.slice(0, Number(block.number) + 1);
      return extra.has(h) || findClass(h, this.config.classes, blocks) !== undefined;
    };
  }

  /** Submits a transaction (INVOKE, DEPLOY_ACCOUNT, DECLARE) into the pending block: nonce and signature checked, fee charged. */
  addInvokeTransaction(tx: RollupTransaction, outcome?: OutcomeInput, opts: { validate?: boolean } = {}): Felt {
    this.sync();
    if (tx.query) throw new RollupError(61, 'The transaction version is not supported', 'query versions (2^128 + version) are for fee estimates only');
    const c = this.config;
    let applied;
    try {
      applied = applyTransaction(this.pendingState, tx, outcome, {
        chainId: c.chainId,
        gasPrices: c.gasPrices,
        sequencerAddress: c.sequencerAddress,
        feeTokens: c.feeTokens,
        validate: opts.validate ?? true,
        charge: true,
        isDeclared: this.declaredIn('pending'),
      });
    } catch (err) {
      throw submitError(err);
    }
    this.pendingState = applied.state;
    this.txs.set(applied.executed.hash, { pendingIndex: this.pendingTxs.length });
    this.pendingTxs = [...this.pendingTxs, applied.executed];
    this.events.emit('txAdded', applied.executed);
    return applied.executed.hash;
  }

  /** Fee estimates, each transaction simulated on the state the previous ones left; one that would revert is error 41, as on Starknet. */
  estimateFee(txs: readonly RollupTransaction[], id: BlockId, opts: { validate?: boolean } = {}): FeeEstimate[] {
    return this.simulate(txs, id, opts).map((s, i) => {
      const reason = s.executed.revertReason;
      if (reason !== undefined) throw new RollupError(41, 'Transaction execution error', { transaction_index: i, execution_error: reason });
      return s.estimate;
    });
  }

  /** Each transaction simulated on the state the previous ones left: its execution, the states around it and its fee estimate. */
  simulate(txs: readonly RollupTransaction[], id: BlockId, opts: { validate?: boolean; charge?: boolean } = {}): SimulatedTx[] {
    return simulateTransactions(this, txs, id, opts);
  }

  // ---- control ----

  /** Seals the pending block (empty or not) and returns it. */
  createBlock(timestamp?: bigint): SealedBlock {
    this.sync();
    return this.seal(this.clock.now(), timestamp);
  }

  private seal(atMs: number, timestamp?: bigint): SealedBlock {
    const parent = this.blocks.at(-1);
    const c = this.config;
    const txs = this.pendingTxs;
    const state = this.pendingState;
    const fields = {
      number: parent === undefined ? 0n : parent.number + 1n,
      parentHash: parent?.hash ?? 0n,
      newRoot: parent !== undefined && txs.length === 0 ? parent.newRoot : stateCommitment(state),
      timestamp: timestamp ?? maxBig(this.chainTimeAt(atMs), parent?.timestamp ?? 0n),
      sequencerAddress: c.sequencerAddress,
      gasPrices: c.gasPrices,
      starknetVersion: c.starknetVersion,
      transactions: txs,
    };
    const block: SealedBlock = { ...fields, hash: blockHash(fields), state, status: 'ACCEPTED_ON_L2', sealedAtMs: atMs, l1Anchor: this.l1Head };
    if (this.nextGasPrices !== undefined) [this.cfg, this.nextGasPrices] = [{ ...c, gasPrices: this.nextGasPrices }, undefined];
    this.blocks.push(block);
    this.byHash.set(block.hash, block);
    txs.forEach((t, index) => {
      this.txs.set(t.hash, { block, index });
    });
    this.pendingTxs = [];
    this.events.emit('blockSealed', block);
    return block;
  }

  /** Accepts a block and its ancestors on L1; returns the blocks that changed status. */
  acceptOnL1(id: BlockId): SealedBlock[] {
    const block = this.block(id);
    if (block === undefined) throw new RollupError(24, 'Block not found');
    if (!('hash' in block)) throw new DevgateError('the pending block cannot be accepted on L1 before it is sealed (devnet_createBlock)');
    if (block.status === 'REJECTED') throw new DevgateError(`block ${felt(block.hash)} is REJECTED; statuses only move forward`);
    return this.emitAccepted(acceptUpTo(this.blocks, Number(block.number)));
  }

  /**
   * Rejects a block that is PENDING or ACCEPTED_ON_L2, with its descendants (the pending block is
   * sealed first so its transactions are rejected too). The chain continues from the block's parent
   * and the next block reuses the rejected number. Returns the rejected blocks.
   */
  rejectBlock(id: BlockId): SealedBlock[] {
    const found = this.block(id);
    if (found === undefined) throw new RollupError(24, 'Block not found');
    if ('hash' in found) {
      if (found.status !== 'ACCEPTED_ON_L2' || this.blocks[Number(found.number)] !== found) {
        throw new DevgateError(`block ${felt(found.hash)} is ${found.status}; only PENDING or ACCEPTED_ON_L2 blocks can be rejected`);
      }
      if (found.number === 0n) throw new DevgateError('the genesis block cannot be rejected');
    }
    // The pending block is built on the rejected ones: seal it so its transactions are rejected with them.
    const sealed = this.pendingTxs.length > 0 ? this.seal(this.clock.now()) : undefined;
    const block = 'hash' in found ? found : sealed!;
    const rejected = this.blocks.splice(Number(block.number));
    for (const b of rejected) b.status = 'REJECTED';
    this.pendingState = this.blocks.at(-1)!.state;
    this.events.emit('blocksRejected', rejected);
    return rejected;
  }

  /** Sets chain time (seconds); with `generateBlock`, seals a block at that time. */
  setTime(timestamp: bigint, generateBlock = false): SealedBlock | undefined {
    this.sync();
    const head = this.blocks.at(-1)!;
    if (timestamp < head.timestamp)
      throw new InvalidArgument(`time ${timestamp} is before the latest block's timestamp ${head.timestamp}; block timestamps never decrease`);
    this.anchorSec = timestamp;
    this.anchorMs = this.clock.now();
    return generateBlock ? this.seal(this.anchorMs) : undefined;
  }

  /** Moves chain time forward by `seconds` and seals a block (as starknet-devnet does). */
  increaseTime(seconds: bigint): SealedBlock {
    this.sync();
    if (seconds < 0n) throw new InvalidArgument('time must not be negative');
    this.anchorSec += seconds;
    return this.seal(this.clock.now());
  }

  // ---- hooks of the controls (src/rollup/engine/controls.ts and snapshots.ts) ----

  /** Sets the L1 gas prices of the blocks after the pending one (which keeps the prices it charged at). */
  setNextGasPrices(prices: GasPrices): void {
    this.nextGasPrices = prices;
  }

  /** Edits the pending state (a control's state edit; the next sealed block commits it). */
  editPendingState(edit: (state: RollupState) => RollupState): void {
    this.sync();
    this.pendingState = edit(this.pendingState);
  }

  /** The chain's contents as a snapshot keeps them, blocks shared: the indexes' journal positions (or, `full`, copies). */
  mark(full = false): RollupMark {
    const { blocks, byHash, txs, pendingTxs, pendingState, anchorSec, anchorMs, cfg, nextGasPrices } = this;
    const indexes = full ? { copies: { byHash: new Map(byHash), txs: new Map(txs) } } : { journal: { byHash: byHash.mark(), txs: txs.mark() } };
    return { blocks: [...blocks], ...indexes, pendingTxs, pendingState, anchorSec, anchorMs, config: cfg, nextGasPrices };
  }

  /** Puts back what mark() took (not the interval schedule, nor the L1 head seen); answers the blocks sealed since, now forgotten. */
  rewind(m: RollupMark): SealedBlock[] {
    const forgotten = 'journal' in m ? this.byHash.undo(m.journal.byHash) : this.byHash.replaceWith(m.copies.byHash);
    if ('journal' in m) this.txs.undo(m.journal.txs);
    else this.txs.replaceWith(m.copies.txs);
    this.blocks.splice(0, this.blocks.length, ...m.blocks);
    this.pendingTxs = [...m.pendingTxs];
    ({ pendingState: this.pendingState, anchorSec: this.anchorSec, anchorMs: this.anchorMs, config: this.cfg, nextGasPrices: this.nextGasPrices } = m);
    return forgotten;
  }

  /** Stops recording index changes (no snapshot needs them any more). */
  stopJournals(): void {
    this.byHash.stop();
    this.txs.stop();
  }

  /** Sealed blocks on the chain, oldest first. */
  get length(): number {
    return this.blocks.length;
  }
}
