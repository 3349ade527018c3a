/**
 * Otterscan's searches (ots_searchTransactionsBefore/After, ots_getContractCreator, ots_getTransactionBySenderAndNonce)
 * without an index, bounded in work. A transaction touches an address when it sends it, names it as `to`, creates it,
 * or when any frame of its call tree (callTracer, run again) calls, creates or self-destructs from or to it (Erigon's
 * rule). Only transactions that ran code are traced (a plain transfer's 21,000 gas ran none); the addresses a block's
 * traces touch are kept in a bounded cache by block hash (blocks never change). A search scans at most
 * MAX_SEARCH_BLOCKS blocks and traces at most MAX_SEARCH_TRACES transactions (past either: LimitExceeded naming
 * it), and yields to the event loop every YIELD_EVERY blocks so other requests go on. Only the chain's own blocks are
 * searched (from its base: genesis, or a fork's fork block, whose transactions are the upstream's: forkOts.ts).
 */
import { type Address, bytesToHex } from '@ethereumjs/util';
import { LimitExceeded } from '../../../errors.js';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';
import type { CallFrame } from '../trace/types.js';
import { callTreesOf } from './otsTraces.js';

/** Most blocks one search scans. */
export const MAX_SEARCH_BLOCKS = 100_000;
/** Most transactions one search runs again to see their internal calls (cached blocks cost none). */
export const MAX_SEARCH_TRACES = 2_000;
/** Blocks scanned between yields to the event loop. */
export const YIELD_EVERY = 32;
/** Most addresses the touched-address cache keeps, over all blocks (about 60 bytes each). */
export const MAX_CACHED_ADDRESSES = 200_000;

/** A transaction found: its block and position. */
export interface TxAt {
  readonly block: MinedBlock;
  readonly index: number;
}

export interface SearchPage {
  /** Newest first. */
  readonly txs: readonly TxAt[];
  /** The page holds the newest matching transactions (nothing after it). */
  readonly firstPage: boolean;
  /** The page holds the oldest matching transactions (nothing before it). */
  readonly lastPage: boolean;
}

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));
const lower = (a: Address | undefined) => a?.toString().toLowerCase();

/** Addresses each traced block's call trees touch, per transaction, by block hash (least recently used out first). */
class TouchedCache {
  private readonly map = new Map<string, readonly (ReadonlySet<string> | undefined)[]>();
  private size = 0;
  get(hash: string) {
    const v = this.map.get(hash);
    if (v !== undefined) {
      this.map.delete(hash);
      this.map.set(hash, v);
    }
    return v;
  }
  set(hash: string, v: readonly (ReadonlySet<string> | undefined)[]) {
    const n = v.reduce((s, t) => s + (t?.size ?? 0), 0);
    if (n > MAX_CACHED_ADDRESSES) return;
    this.map.set(hash, v);
    this.size += n;
    for (const [k, old] of this.map) {
      if (this.size <= MAX_CACHED_ADDRESSES) break;
      this.map.delete(k);
      this.size -= old.reduce((s, t) => s + (t?.size ?? 0), 0);
    }
  }
}
const touchedCache = new TouchedCache();

function touchedBy(top: CallFrame): Set<string> {
  const out = new Set<string>();
  const walk = (f: CallFrame) => {
    out.add(f.from.toString().toLowerCase());
    if (f.to !== undefined) out.add(f.to.toString().toLowerCase());
    for (const c of f.calls) walk(c);
  };
  walk(top);
  return out;
}

/** What one search may do. */
export interface SearchLimits {
  readonly blocks: number;
  readonly traces: number;
}
export const SEARCH_LIMITS: SearchLimits = { blocks: MAX_SEARCH_BLOCKS, traces: MAX_SEARCH_TRACES };

/** Counts what a search has done against its limits. */
class Budget {
  blocks = 0;
  traces = 0;
  constructor(private readonly limits: SearchLimits) {}
  async block(): Promise<void> {
    if (++this.blocks > this.limits.blocks)
      throw new LimitExceeded(`search scanned ${this.limits.blocks} blocks without filling the page: search from a nearer block`);
    if (this.blocks % YIELD_EVERY === 0) await yieldNow();
  }
  trace(n: number): void {
    this.traces += n;
    if (this.traces > this.limits.traces)
      throw new LimitExceeded(`search ran more than ${this.limits.traces} transactions again without filling the page: search from a nearer block`);
  }
}

/** Whether the transaction at `i` ran code (gas beyond a plain transfer's): only those are traced. */
function ranCode(block: MinedBlock, i: number): boolean {
  const r = block.receiptAt?.(i) ?? block.receipts[i]!;
  return r.gasUsed > 21_000n || r.contractAddress !== undefined;
}

/** The positions of the transactions of `block` that touch `who` (lowercase 0x text). */
async function matchesIn(chain: EthChain, block: MinedBlock, who: string, budget: Budget): Promise<number[]> {
  const n = block.txHashes.length;
  if (n === 0) return [];
  const key = bytesToHex(block.hash);
  let touched = touchedCache.get(key);
  const out: number[] = [];
  if (touched === undefined) {
    let traced = false;
    for (let i = 0; i < n && !traced; i++) traced = ranCode(block, i);
    if (traced) {
      budget.trace(n);
      const trees = await callTreesOf(chain, block);
      touched = trees.map((t, i) => (ranCode(block, i) ? touchedBy(t) : undefined));
      touchedCache.set(key, touched);
    }
  }
  for (let i = 0; i < n; i++) {
    const r = block.receiptAt?.(i) ?? block.receipts[i]!;
    const tx = block.transactionAt?.(i) ?? block.block.transactions[i]!;
    const hit = lower(block.senders[i]) === who || lower(tx.to) === who || lower(r.contractAddress) === who || touched?.[i]?.has(who) === true;
    if (hit) out.push(i);
  }
  return out;
}

/**
 * The transactions touching `address` in blocks before `before` (0: from head, included), newest first, in whole
 * blocks until at least `pageSize` are found (Erigon's paging: a block is never split).
 */
export async function searchBefore(chain: EthChain, address: Address, before: bigint, pageSize: number, limits = SEARCH_LIMITS): Promise<SearchPage> {
  const who = address.toString().toLowerCase();
  const budget = new Budget(limits);
  const head = chain.head().number;
  const start = before === 0n || before > head + 1n ? head : before - 1n;
  const floor = chain.base().number;
  const txs: TxAt[] = [];
  let n = start;
  for (; n >= floor && txs.length < pageSize; n--) {
    await budget.block();
    const block = chain.blockByNumber(n);
    if (block === undefined) break;
    for (const i of (await matchesIn(chain, block, who, budget)).reverse()) txs.push({ block, index: i });
  }
  const lastPage = n < floor || !(await lookahead(() => anyBefore(chain, who, n, floor, budget)));
  return { txs, firstPage: before === 0n, lastPage };
}

/**
 * The transactions touching `address` in blocks after `after` (0: from genesis), in whole blocks until at least
 * `pageSize` are found; answered newest first, as Otterscan wants.
 */
export async function searchAfter(chain: EthChain, address: Address, after: bigint, pageSize: number, limits = SEARCH_LIMITS): Promise<SearchPage> {
  const who = address.toString().toLowerCase();
  const budget = new Budget(limits);
  const head = chain.head().number;
  const txs: TxAt[] = [];
  const floor = chain.base().number;
  let n = after + 1n > floor ? after + 1n : floor;
  for (; n <= head && txs.length < pageSize; n++) {
    await budget.block();
    const block = chain.blockByNumber(n);
    if (block === undefined) break;
    for (const i of await matchesIn(chain, block, who, budget)) txs.push({ block, index: i });
  }
  const firstPage = n > head || !(await lookahead(() => anyAfter(chain, who, n, head, budget)));
  return { txs: txs.reverse(), firstPage, lastPage: after === 0n };
}

/** Whether more matches lie beyond a page; past the search's limits, assumed so (the next page then names the limit). */
async function lookahead(more: () => Promise<boolean>): Promise<boolean> {
  try {
    return await more();
  } catch (err) {
    if (err instanceof LimitExceeded) return true;
    throw err;
  }
}

/** Whether a block from `from` down to `floor` holds a match (ends a Before page's `lastPage`). */
async function anyBefore(chain: EthChain, who: string, from: bigint, floor: bigint, budget: Budget): Promise<boolean> {
  for (let n = from; n >= floor; n--) {
    await budget.block();
    const block = chain.blockByNumber(n);
    if (block !== undefined && (await matchesIn(chain, block, who, budget)).length > 0) return true;
  }
  return false;
}

/** Whether a block from `from` to `head` holds a match (ends an After page's `firstPage`). */
async function anyAfter(chain: EthChain, who: string, from: bigint, head: bigint, budget: Budget): Promise<boolean> {
  for (let n = from; n <= head; n++) {
    await budget.block();
    const block = chain.blockByNumber(n);
    if (block !== undefined && (await matchesIn(chain, block, who, budget)).length > 0) return true;
  }
  return false;
}

/** The first block number in [lo, hi] where `test` holds (it holds at hi and, once it holds, at every later block). */
async function firstWhere(chain: EthChain, lo: bigint, hi: bigint, test: (b: MinedBlock) => Promise<boolean>): Promise<bigint> {
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (await test(chain.blockByNumber(mid)!)) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

/**
 * The transaction that created the contract at `address` and the account that ran the CREATE: the first block with
 * its code is found by halving (log2 of the chain's length in state reads), then that block's traces are searched.
 * Null for an account without code, code from genesis or set by anvil_setCode.
 */
export async function contractCreator(chain: EthChain, address: Address): Promise<{ tx: TxAt; creator: Address } | undefined> {
  const head = chain.head();
  const hasCode = async (b: MinedBlock) => (await chain.getCode(address, b)).length > 0;
  if (!(await hasCode(head))) return undefined;
  const floor = chain.base().number;
  const n = await firstWhere(chain, floor, head.number, hasCode);
  if (n === floor) return undefined;
  const block = chain.blockByNumber(n)!;
  const who = address.toString().toLowerCase();
  const trees = await callTreesOf(chain, block);
  for (let i = 0; i < trees.length; i++) {
    const found = findCreate(trees[i]!, who);
    if (found !== undefined) return { tx: { block, index: i }, creator: found };
  }
  return undefined;
}

function findCreate(f: CallFrame, who: string): Address | undefined {
  if ((f.type === 'CREATE' || f.type === 'CREATE2') && f.error === undefined && lower(f.to) === who) return f.from;
  for (const c of f.calls) {
    const found = findCreate(c, who);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The transaction `sender` sent with `nonce`: the first block after which its nonce passes `nonce`, found by halving. */
export async function txBySenderAndNonce(chain: EthChain, sender: Address, nonce: bigint): Promise<TxAt | undefined> {
  const head = chain.head();
  const past = async (b: MinedBlock) => ((await chain.getAccount(sender, b))?.nonce ?? 0n) > nonce;
  if (!(await past(head))) return undefined;
  const n = await firstWhere(chain, chain.base().number, head.number, past);
  const block = chain.blockByNumber(n)!;
  const who = sender.toString().toLowerCase();
  for (let i = 0; i < block.txHashes.length; i++) {
    const tx = block.transactionAt?.(i) ?? block.block.transactions[i]!;
    if (lower(block.senders[i]) === who && tx.nonce === nonce) return { block, index: i };
  }
  return undefined;
}
