/**
 * A fork's history: blocks, transactions, receipts and logs up to the fork block come from the upstream, and
 * nothing after it does (a block, transaction or receipt the upstream has past the fork block is answered as not
 * found: the fork's later blocks are its own). Answers are the upstream's JSON, kept in memory (a byte budget,
 * oldest dropped first) and in the fork's disk cache, so the same question is asked upstream once.
 */
import type { ForkDiskCache } from './forkCache.js';
import type { Upstream } from './upstream.js';

/** The memory kept for history answers, in bytes of their JSON (default 64 MiB). */
export const DEFAULT_HISTORY_BYTES = 64 * 1024 * 1024;

type Json = Record<string, unknown> | null;

export interface LogFilter {
  fromBlock?: string;
  toBlock?: string;
  blockHash?: string;
  address?: unknown;
  topics?: unknown;
}

const quantity = (n: bigint) => `0x${n.toString(16)}`;

export class ForkHistory {
  private readonly memory = new Map<string, { result: unknown; bytes: number }>();
  private memoryBytes = 0;

  constructor(
    private readonly upstream: Upstream,
    readonly blockNumber: bigint,
    private readonly cache?: ForkDiskCache,
    private readonly maxBytes = DEFAULT_HISTORY_BYTES,
  ) {}

  /** The upstream's answer to an immutable question (memory, then disk, then the upstream; null answers are not kept). */
  async request<T>(method: string, params: unknown[]): Promise<T> {
    const id = JSON.stringify([method, params]);
    const kept = this.memory.get(id);
    if (kept !== undefined) return kept.result as T;
    let result = this.cache?.answer(method, params);
    if (result === undefined) {
      result = await this.upstream.request(method, params);
      if (result !== null) this.cache?.keepAnswer(method, params, result);
    }
    if (result !== null) this.remember(id, result);
    return result as T;
  }

  /** Block `number` (at most the fork block), with full transactions or their hashes. */
  async blockByNumber(number: bigint, full: boolean): Promise<Json> {
    if (number > this.blockNumber || number < 0n) return null;
    return this.request<Json>('eth_getBlockByNumber', [quantity(number), full]);
  }

  /** The upstream's block of this hash when it is at most the fork block; null otherwise. */
  async blockByHash(hash: string, full: boolean): Promise<Json> {
    return this.upToFork(await this.request<Json>('eth_getBlockByHash', [hash, full]), 'number');
  }

  async transaction(hash: string): Promise<Json> {
    return this.upToFork(await this.request<Json>('eth_getTransactionByHash', [hash]), 'blockNumber');
  }

  async receipt(hash: string): Promise<Json> {
    return this.upToFork(await this.request<Json>('eth_getTransactionReceipt', [hash]), 'blockNumber');
  }

  /**
   * The upstream's logs of the part of a range at or below the fork block (`to` and `from` already resolved to
   * numbers by the caller: tags mean the fork's own blocks). Not cached: ranges are asked in many shapes.
   */
  async logs(filter: LogFilter, from: bigint, to: bigint): Promise<Json[]> {
    if (filter.blockHash !== undefined) {
      const block = await this.blockByHash(filter.blockHash, false);
      if (block === null) return [];
      return this.upstream.request<Json[]>('eth_getLogs', [{ blockHash: filter.blockHash, address: filter.address, topics: filter.topics }]);
    }
    const top = to < this.blockNumber ? to : this.blockNumber;
    if (from > top) return [];
    return this.upstream.request<Json[]>('eth_getLogs', [
      { fromBlock: quantity(from), toBlock: quantity(top), address: filter.address, topics: filter.topics },
    ]);
  }

  /** `answer` when its `field` (a block number, hex) is at most the fork block; null for pending or later ones. */
  private upToFork(answer: Json, field: string): Json {
    if (answer === null || answer === undefined) return null;
    const at = answer[field];
    if (typeof at !== 'string') return null;
    return BigInt(at) <= this.blockNumber ? answer : null;
  }

  private remember(id: string, result: unknown): void {
    const bytes = id.length + JSON.stringify(result).length;
    if (bytes > this.maxBytes) return;
    this.memory.set(id, { result, bytes });
    this.memoryBytes += bytes;
    for (const [key, v] of this.memory) {
      if (this.memoryBytes <= this.maxBytes) break;
      this.memory.delete(key);
      this.memoryBytes -= v.bytes;
    }
  }
}
