/**
 * The mining settings of an eth network, as anvil's: automine (a send is mined before it is answered), interval
 * mining (a block every N ms of devgate's clock, empty ones too), or manual; and the controls test tools call
 * (time travel, next timestamp, timestamp interval, next base fee, next prevRandao, block gas limit). It decides the
 * next header's fields; its node (src/eth/node/) mines, on its writer.
 *
 * Block time is deterministic: a block is `step` seconds after its parent (12, or the interval mining
 * period rounded up to whole seconds), or what evm_increaseTime added since the last block instead, unless
 * evm_setNextBlockTimestamp or anvil_setBlockTimestampInterval say otherwise. The same seed and the same
 * requests so give the same block hashes on every run, whatever the wall clock says.
 */
import { setClockTimer, type Clock } from '../../../clock.js';
import { bigIntToBytes, bytesToBigInt, setLengthLeft, type Address } from '@ethereumjs/util';
import { InvalidArgument, LimitExceeded } from '../../../errors.js';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock, MineResult, NextHeader } from '../chain/types.js';

export type { MineResult } from '../chain/types.js';

/** Seconds between blocks when nothing else says (a mainnet slot). */
export const DEFAULT_BLOCK_STEP = 12n;

/** The latest block timestamp: a header's time is a uint64 in geth and anvil. */
export const MAX_TIMESTAMP = 2n ** 64n - 1n;

/** Refuses a block time past 2^64-1 with anvil's text ("The timestamp is too big"), naming what was asked. */
function checkTimestamp(timestamp: bigint, what: string): void {
  if (timestamp > MAX_TIMESTAMP) throw new InvalidArgument(`The timestamp is too big: ${what} would be ${timestamp}, past 2^64-1 (${MAX_TIMESTAMP})`);
}

export interface MiningOptions {
  /** Mine a block for every send (default true, unless interval mining is on). */
  readonly automine?: boolean;
  /** Interval mining: a block every this many milliseconds (0 or undefined: off). */
  readonly intervalMs?: number;
}

/** The budget of a mining call (the gateway's limits, read when a call comes). */
export interface MiningLimits {
  /** Most blocks one call mines, each pool transaction the first block takes counting as one more. */
  readonly maxMineBlocks: number;
}

/** Without a gateway (engine tests): the gateway's default. */
const DEFAULT_MINING_LIMITS: MiningLimits = { maxMineBlocks: 20_000 };

export interface MiningMode {
  readonly automine: boolean;
  /** Milliseconds between interval blocks; undefined when interval mining is off. */
  readonly intervalMs: number | undefined;
}

/** Everything a snapshot of the miner keeps: mode and time controls. */
export interface MinerState {
  readonly automine: boolean;
  readonly intervalMs: number | undefined;
  readonly increase: bigint;
  readonly totalIncrease: bigint;
  readonly nextTimestamp: bigint | undefined;
  readonly timestampInterval: bigint | undefined;
  readonly nextBaseFee: bigint | undefined;
  readonly gasLimit: bigint | undefined;
  /** hardhat_setPrevRandao's value as a number (state files keep numbers), until the next block is mined (older dumps lack it). */
  readonly nextPrevRandao?: bigint;
}

export class Miner {
  private automine: boolean;
  private intervalMs: number | undefined;
  private cancelTimer: (() => void) | undefined;
  /** Seconds evm_increaseTime added since the last block (spent by the next block). */
  private increase = 0n;
  /** Everything evm_increaseTime ever added (what it answers). */
  private totalIncrease = 0n;
  private nextTimestamp: bigint | undefined;
  private timestampInterval: bigint | undefined;
  private baseFeeOverride: bigint | undefined;
  private prevRandao: Uint8Array | undefined;
  private gasLimit: bigint | undefined;
  private coinbase: Address | undefined;
  private closed = false;
  /** What an interval tick does (the node mines a block on its writer); nothing until the node says. */
  private tick: (() => void) | undefined;

  constructor(
    private readonly chain: EthChain,
    private readonly clock: Clock,
    opts: MiningOptions = {},
    private readonly limits: () => MiningLimits = () => DEFAULT_MINING_LIMITS,
  ) {
    this.intervalMs = opts.intervalMs ? opts.intervalMs : undefined;
    this.automine = opts.automine ?? this.intervalMs === undefined;
  }

  /** What interval mining does every period (the node's command); starts the timer when interval mining is on. */
  onTick(tick: () => void): void {
    this.tick = tick;
    this.schedule();
  }

  mode(): MiningMode {
    return { automine: this.automine, intervalMs: this.intervalMs };
  }

  /** Turns automine on or off (interval mining is unaffected, as hardhat's). */
  setAutomine(on: boolean): void {
    this.automine = on;
  }

  /** Mines a block every `ms` milliseconds of devgate's clock; 0 turns interval mining off. */
  setIntervalMining(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new InvalidArgument(`interval must be a whole number of milliseconds >= 0, got ${ms}`);
    this.intervalMs = ms === 0 ? undefined : ms;
    this.schedule();
  }

  /** Moves the next block's time forward by `seconds`; answers the total moved so far. */
  increaseTime(seconds: bigint): bigint {
    if (seconds < 0n) throw new InvalidArgument(`cannot increase time by a negative amount (${seconds} s)`);
    checkTimestamp(this.nextHeader().timestamp! + seconds, "the next block's timestamp");
    this.increase += seconds;
    this.totalIncrease += seconds;
    return this.totalIncrease;
  }

  /** The next block's timestamp; it must be after head's. */
  setNextBlockTimestamp(timestamp: bigint): void {
    checkTimestamp(timestamp, "the next block's timestamp");
    const parent = this.chain.head().header.timestamp;
    if (timestamp <= parent) throw new InvalidArgument(`timestamp ${timestamp} is lower than or equal to the previous block's timestamp ${parent}`);
    this.nextTimestamp = timestamp;
  }

  /** Every following block `seconds` after its parent; undefined removes the interval (answers whether one was set). */
  setTimestampInterval(seconds: bigint | undefined): boolean {
    if (seconds !== undefined && seconds < 1n) throw new InvalidArgument(`a block timestamp interval is at least 1 second, got ${seconds}`);
    if (seconds !== undefined) checkTimestamp(this.chain.head().header.timestamp + seconds, "the next block's timestamp");
    const had = this.timestampInterval !== undefined;
    this.timestampInterval = seconds;
    return had;
  }

  /** The next block's base fee (EIP-1559 chains), once. */
  setNextBlockBaseFeePerGas(fee: bigint): void {
    if (!this.chain.common.isActivatedEIP(1559)) throw new InvalidArgument('this chain has no base fee (EIP-1559 is not active)');
    this.baseFeeOverride = fee;
  }

  /**
   * The next block's prevRandao (its mixHash), once; the blocks after it carry it on, as every block carries its
   * parent's. Only after the merge, as hardhat's.
   */
  setNextBlockPrevRandao(value: Uint8Array): void {
    const common = this.chain.commonAt(this.chain.head().number + 1n, this.nextHeader().timestamp!);
    if (!common.gteHardfork('paris')) {
      throw new InvalidArgument(`hardhat_setPrevRandao is only available in post-merge hardforks, the next block's is ${common.hardfork()}`);
    }
    this.prevRandao = value;
  }

  /** The gas limit of every following block. */
  setBlockGasLimit(limit: bigint): void {
    if (limit < 5000n) throw new InvalidArgument(`a block gas limit is at least 5000, got ${limit}`);
    this.gasLimit = limit;
  }

  /** The fee recipient of every following block (anvil_setCoinbase). */
  setCoinbase(address: Address): void {
    this.coinbase = address;
  }

  /** The next block's base fee: the override, else EIP-1559's from head; undefined before London. */
  nextBaseFee(): bigint | undefined {
    const next = this.nextHeader();
    if (!this.chain.rulesAt(this.chain.head().number + 1n, next.timestamp!).isActivatedEIP(1559)) return undefined;
    const head = this.chain.head().header;
    return next.baseFeePerGas ?? (head.baseFeePerGas === undefined ? 1_000_000_000n : head.calcNextBaseFee());
  }

  /** The next block's gas limit. */
  nextGasLimit(): bigint {
    return this.gasLimit ?? this.chain.head().header.gasLimit;
  }

  /** Seconds between a block and its parent when nothing one-shot says otherwise. */
  private step(): bigint {
    return this.timestampInterval ?? (this.intervalMs === undefined ? DEFAULT_BLOCK_STEP : BigInt(Math.max(1, Math.ceil(this.intervalMs / 1000))));
  }

  /** The header fields of the next block as the controls set them (the pending block shows the same). */
  nextHeader(): NextHeader {
    const parent = this.chain.head().header.timestamp;
    // evm_increaseTime's seconds stand in for the block time, as on anvil and hardhat (increaseTime(3600) then mine: 3,600 s, not 3,612).
    const timestamp = this.nextTimestamp ?? parent + (this.increase > 0n ? this.increase : this.step());
    return {
      timestamp,
      ...(this.coinbase !== undefined ? { coinbase: this.coinbase } : {}),
      ...(this.gasLimit !== undefined ? { gasLimit: this.gasLimit } : {}),
      ...(this.baseFeeOverride !== undefined ? { baseFeePerGas: this.baseFeeOverride } : {}),
      ...(this.prevRandao !== undefined ? { prevRandao: this.prevRandao } : {}),
    };
  }

  /**
   * Checks a call to mine `count` blocks (the first at `timestamp` or the next timestamp; with `intervalSeconds`,
   * each later one that many seconds after the one before; 0, as viem sends by default, is the usual block time):
   * refused when its work (blocks + pool transactions) is past the limit or its last block's time past 2^64-1.
   */
  checkMine(count: bigint, intervalSeconds?: bigint, timestamp?: bigint): void {
    if (count < 1n) throw new InvalidArgument(`number of blocks must be at least 1, got ${count}`);
    this.checkWork(count);
    const first = timestamp ?? this.nextHeader().timestamp!;
    const later = intervalSeconds !== undefined && intervalSeconds > 0n ? intervalSeconds : this.step();
    checkTimestamp(first + (count - 1n) * later, `block ${this.chain.head().number + count}'s timestamp`);
  }

  /** Refuses a mining call of more work (blocks, and the pool transactions its first block takes) than the limit. */
  checkWork(count: bigint): void {
    const max = BigInt(this.limits().maxMineBlocks);
    const pooled = BigInt(this.chain.pendingTransactions().length);
    if (count + pooled <= max) return;
    const what = pooled === 0n ? `${count} blocks` : `${count} blocks and ${pooled} pool transactions`;
    throw new LimitExceeded(`mining ${what} is past the limit of ${max} blocks of work per call (maxMineBlocks, --max-mine-blocks); mine in smaller steps`);
  }

  /** The header of the block mined now (`header`, else the controls'); throws for a time past 2^64-1. */
  blockHeader(header: NextHeader = this.nextHeader()): NextHeader {
    if (header.timestamp !== undefined) checkTimestamp(header.timestamp, `block ${this.chain.head().number + 1n}'s timestamp`);
    return header;
  }

  /** A block was mined: the one-shot controls (time added, next timestamp, base fee, prevRandao) are spent. */
  blockMined(): void {
    this.increase = 0n;
    this.nextTimestamp = undefined;
    this.baseFeeOverride = undefined;
    this.prevRandao = undefined;
  }

  /** The mode and time controls, for a snapshot. */
  state(): MinerState {
    const { automine, intervalMs, increase, totalIncrease, nextTimestamp, timestampInterval, gasLimit } = this;
    const { prevRandao } = this;
    return {
      automine,
      intervalMs,
      increase,
      totalIncrease,
      nextTimestamp,
      timestampInterval,
      nextBaseFee: this.baseFeeOverride,
      gasLimit,
      ...(prevRandao !== undefined ? { nextPrevRandao: bytesToBigInt(prevRandao) } : {}),
    };
  }

  /** Puts mode and time controls back as a snapshot saw them (interval mining restarts its period). */
  restore(state: MinerState): void {
    ({ automine: this.automine, intervalMs: this.intervalMs, increase: this.increase, totalIncrease: this.totalIncrease } = state);
    ({ nextTimestamp: this.nextTimestamp, timestampInterval: this.timestampInterval, nextBaseFee: this.baseFeeOverride, gasLimit: this.gasLimit } = state);
    this.prevRandao = state.nextPrevRandao === undefined ? undefined : setLengthLeft(bigIntToBytes(state.nextPrevRandao), 32);
    this.schedule();
  }

  /** Stops interval mining for good (the network closes). */
  close(): void {
    this.closed = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private schedule(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.intervalMs === undefined || this.closed || this.tick === undefined) return;
    const ms = this.intervalMs;
    this.cancelTimer = setClockTimer(this.clock, ms, () => {
      this.cancelTimer = undefined;
      this.tick?.();
      if (this.intervalMs === ms) this.schedule();
    });
  }
}

/** The blocks of a mining run (for answers that list them). */
export const blocksOf = (results: readonly MineResult[]): MinedBlock[] => results.map((r) => r.block);
