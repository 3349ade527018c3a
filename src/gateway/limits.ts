/** Request limits of the gateway: batch size, body and message size, HTTP timeouts. */
import { z } from 'zod';

export interface GatewayLimits {
  /** Most calls in one batch; a larger batch gets one -32005 error. */
  readonly maxBatch: number;
  /** Largest HTTP body in bytes; a larger one gets HTTP 413. */
  readonly maxBodyBytes: number;
  /** Largest WebSocket message in bytes; a larger one closes the connection with code 1009. */
  readonly maxMessageBytes: number;
  /** Time a client has to send a whole HTTP request (headers and body), in ms. */
  readonly requestTimeoutMs: number;
  /** Time a client has to send an HTTP request's headers, in ms (at most requestTimeoutMs). */
  readonly headersTimeoutMs: number;
  /**
   * How long an idle keep-alive HTTP connection stays open, in ms. Longer than clients' own idle timeouts
   * (undici: 4 s), so a client never reuses a connection the server is closing at that moment.
   */
  readonly keepAliveTimeoutMs: number;
  /** Heavy calls (eth_call, eth_estimateGas, eth_getLogs, eth_getProof, ...) one key may run at once; past it: -32005. */
  readonly maxConcurrentHeavy: number;
  /** A WebSocket peer is pinged this often (ms) and closed when it did not answer the previous ping. */
  readonly wsPingIntervalMs: number;
  /** A WebSocket connection with more bytes than this not yet read by its peer is closed (1008). */
  readonly maxBufferedBytes: number;
  /** Polling filters (eth_new*Filter) one key may hold at once on one network; past it: -32005. */
  readonly maxFiltersPerKey: number;
  /**
   * Most blocks one anvil_mine / hardhat_mine / evm_mine call mines, counting each pool transaction the first block
   * takes as one more block of work; past it: -32005 before anything is mined (an empty block costs ~4 ms and ~15 KB).
   */
  readonly maxMineBlocks: number;
  /** Largest transaction the pool accepts, in bytes (geth's txMaxSize); past it: "oversized data". */
  readonly txpoolMaxTxBytes: number;
  /** Executable slots (of 32 KB) one account is guaranteed in the pool (geth's --txpool.accountslots). */
  readonly txpoolAccountSlots: number;
  /** Executable slots of all accounts (geth's --txpool.globalslots); past it the pool evicts or answers "txpool is full". */
  readonly txpoolGlobalSlots: number;
  /** Queued (nonce-gap) transactions one account may have (geth's --txpool.accountqueue). */
  readonly txpoolAccountQueue: number;
  /** Queued transactions of all accounts (geth's --txpool.globalqueue). */
  readonly txpoolGlobalQueue: number;
}

export const DEFAULT_LIMITS: GatewayLimits = {
  maxBatch: 1000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxMessageBytes: 5 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 65_000,
  maxConcurrentHeavy: 16,
  wsPingIntervalMs: 30_000,
  maxBufferedBytes: 16 * 1024 * 1024,
  maxFiltersPerKey: 1000,
  maxMineBlocks: 10_000,
  txpoolMaxTxBytes: 128 * 1024,
  txpoolAccountSlots: 16,
  txpoolGlobalSlots: 4096 + 1024,
  txpoolAccountQueue: 64,
  txpoolGlobalQueue: 1024,
};

const positive = z.number().int().positive();

/** Limits as options: any subset, the rest keep their values. */
export const LimitsOptions = z
  .object({
    maxBatch: positive,
    maxBodyBytes: positive,
    maxMessageBytes: positive,
    requestTimeoutMs: positive,
    headersTimeoutMs: positive,
    keepAliveTimeoutMs: positive,
    maxConcurrentHeavy: positive,
    wsPingIntervalMs: positive,
    maxBufferedBytes: positive,
    maxFiltersPerKey: positive,
    maxMineBlocks: positive,
    txpoolMaxTxBytes: positive,
    txpoolAccountSlots: positive,
    txpoolGlobalSlots: positive,
    txpoolAccountQueue: positive,
    txpoolGlobalQueue: positive,
  })
  .partial()
  .strict();
export type LimitsOptions = z.infer<typeof LimitsOptions>;

/** Applies a change to limits; throws a message naming the conflicting fields. */
export function mergeLimits(base: GatewayLimits, change: LimitsOptions): GatewayLimits {
  const merged = { ...base, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) } as GatewayLimits;
  if (merged.headersTimeoutMs > merged.requestTimeoutMs) {
    throw new RangeError(`headersTimeoutMs (${merged.headersTimeoutMs}) must not exceed requestTimeoutMs (${merged.requestTimeoutMs})`);
  }
  return merged;
}
