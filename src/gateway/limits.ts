/** Request limits of the gateway: batch size, body and message size, HTTP timeouts, filter, subscription and WebSocket budgets. */
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
  /**
   * Bytes of requests one key's heavy calls past maxConcurrentHeavy may hold while they wait for a slot (keys on
   * devgate's own `unlimited` plan; a hosted plan's key is refused at once); past it, or at 0: -32005.
   */
  readonly maxQueuedHeavyBytes: number;
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
  /**
   * Polling filters one network holds in all; a new filter past it evicts the least recently polled filter of the key
   * holding the most, so no key can lock the others out.
   */
  readonly maxFilters: number;
  /** Bytes one filter may buffer unpolled (as eth_getFilterChanges would answer them); past it the filter is dropped. */
  readonly maxFilterBytes: number;
  /** Bytes the filters of one key may buffer on one network; past it the key's largest filter is dropped. */
  readonly maxFilterBytesPerKey: number;
  /** Bytes all filters of one network may buffer; past it the network's largest filter is dropped. */
  readonly maxFilterBytesTotal: number;
  /** eth_subscribe subscriptions one key may hold at once on one network, over all its connections; past it: -32005. */
  readonly maxSubscriptionsPerKey: number;
  /** Unsent WebSocket bytes all connections of one key may hold; past it the key's connection holding the most is closed (1008). */
  readonly maxBufferedBytesPerKey: number;
  /** Unsent WebSocket bytes the gateway may hold in all; past it the connection holding the most is closed (1008). */
  readonly maxBufferedBytesTotal: number;
}

export const DEFAULT_LIMITS: GatewayLimits = {
  maxBatch: 1000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxMessageBytes: 5 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 65_000,
  maxConcurrentHeavy: 16,
  maxQueuedHeavyBytes: 64 * 1024 * 1024,
  wsPingIntervalMs: 30_000,
  maxBufferedBytes: 16 * 1024 * 1024,
  maxFiltersPerKey: 1000,
  maxMineBlocks: 20_000,
  txpoolMaxTxBytes: 128 * 1024,
  txpoolAccountSlots: 16,
  txpoolGlobalSlots: 4096 + 1024,
  txpoolAccountQueue: 64,
  txpoolGlobalQueue: 1024,
  maxFilters: 10_000,
  maxFilterBytes: 16 * 1024 * 1024,
  maxFilterBytesPerKey: 64 * 1024 * 1024,
  maxFilterBytesTotal: 256 * 1024 * 1024,
  maxSubscriptionsPerKey: 1000,
  maxBufferedBytesPerKey: 64 * 1024 * 1024,
  maxBufferedBytesTotal: 256 * 1024 * 1024,
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
    maxQueuedHeavyBytes: z.number().int().nonnegative(),
    wsPingIntervalMs: positive,
    maxBufferedBytes: positive,
    maxFiltersPerKey: positive,
    maxMineBlocks: positive,
    txpoolMaxTxBytes: positive,
    txpoolAccountSlots: positive,
    txpoolGlobalSlots: positive,
    txpoolAccountQueue: positive,
    txpoolGlobalQueue: positive,
    maxFilters: positive,
    maxFilterBytes: positive,
    maxFilterBytesPerKey: positive,
    maxFilterBytesTotal: positive,
    maxSubscriptionsPerKey: positive,
    maxBufferedBytesPerKey: positive,
    maxBufferedBytesTotal: positive,
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
