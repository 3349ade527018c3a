/**
 * The transaction pool's rules, as geth's txpool: which transactions are executable (pending: nonces contiguous
 * from the sender's account nonce) and which wait behind a nonce gap (queued); the order a block takes them in
 * (by effective tip, then nonce per sender); and the checks a sent transaction passes, refused with geth's
 * messages (answered as -32000) and leaving nothing behind. The pool's list is kept by EthChain; its node changes it.
 */
import { Capability, type TypedTransaction } from '@ethereumjs/tx';
import { type Address, toChecksumAddress } from '@ethereumjs/util';
import type { PendingTx, SkippedTx } from '../chain/types.js';
import type { BlockDraft } from './draft.js';
import { TxRejected } from './txRejected.js';
import { plainHex } from '../../../hex.js';

/** Blob gas of one blob (EIP-4844). */
const GAS_PER_BLOB = 131_072n;

/** A replacement must raise both fee caps by at least this much (geth's --txpool.pricebump). */
export const PRICE_BUMP_PERCENT = 10n;

/** The fee cap (maxFeePerGas, or gasPrice) and tip cap (maxPriorityFeePerGas, or gasPrice) of a transaction. */
export function feeCaps(tx: TypedTransaction): { feeCap: bigint; tipCap: bigint } {
  const t = tx as { maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint; gasPrice?: bigint };
  if (t.maxFeePerGas !== undefined) return { feeCap: t.maxFeePerGas, tipCap: t.maxPriorityFeePerGas! };
  return { feeCap: t.gasPrice!, tipCap: t.gasPrice! };
}

/** What a transaction pays the block's coinbase per gas at a base fee. */
export function effectiveTip(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  const { feeCap, tipCap } = feeCaps(tx);
  if (baseFee === undefined) return tipCap;
  const room = feeCap - baseFee;
  return room < tipCap ? room : tipCap;
}

/** The pool split as geth shows it: per sender, pending (executable) and queued transactions by nonce. */
export interface PoolView {
  readonly pending: Map<string, PendingTx[]>;
  readonly queued: Map<string, PendingTx[]>;
}

/** Splits the pool into pending and queued; `nonceOf` gives each sender's account nonce at head. */
export async function poolView(pool: readonly PendingTx[], nonceOf: (sender: Address) => Promise<bigint>): Promise<PoolView> {
  const bySender = new Map<string, PendingTx[]>();
  for (const p of pool) {
    const key = p.sender.toString();
    let list = bySender.get(key);
    if (list === undefined) bySender.set(key, (list = []));
    list.push(p);
  }
  const pending = new Map<string, PendingTx[]>();
  const queued = new Map<string, PendingTx[]>();
  for (const [key, list] of bySender) {
    list.sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : a.tx.nonce > b.tx.nonce ? 1 : 0));
    let next = await nonceOf(list[0]!.sender);
    const ready: PendingTx[] = [];
    const waiting: PendingTx[] = [];
    for (const p of list) {
      if (p.tx.nonce === next) {
        ready.push(p);
        next++;
      } else if (p.tx.nonce > next) waiting.push(p);
    }
    if (ready.length > 0) pending.set(key, ready);
    if (waiting.length > 0) queued.set(key, waiting);
  }
  return { pending, queued };
}

/**
 * The order a block takes the pool in, as geth's miner: each sender's transactions by nonce, and among the
 * senders' next ones the highest effective tip first (ties: the one pooled first). Stable for equal tips.
 */
export function orderForBlock(pool: readonly PendingTx[], baseFee: bigint | undefined): PendingTx[] {
  const bySender = new Map<string, PendingTx[]>();
  const firstSeen = new Map<PendingTx, number>();
  pool.forEach((p, i) => {
    firstSeen.set(p, i);
    const key = p.sender.toString();
    let list = bySender.get(key);
    if (list === undefined) bySender.set(key, (list = []));
    list.push(p);
  });
  for (const list of bySender.values())
    list.sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : a.tx.nonce > b.tx.nonce ? 1 : firstSeen.get(a)! - firstSeen.get(b)!));
  const heads = [...bySender.values()];
  const out: PendingTx[] = [];
  while (heads.length > 0) {
    let best = 0;
    for (let i = 1; i < heads.length; i++) {
      const a = heads[i]![0]!;
      const b = heads[best]![0]!;
      const ta = effectiveTip(a.tx, baseFee);
      const tb = effectiveTip(b.tx, baseFee);
      if (ta > tb || (ta === tb && firstSeen.get(a)! < firstSeen.get(b)!)) best = i;
    }
    out.push(heads[best]!.shift()!);
    if (heads[best]!.length === 0) heads.splice(best, 1);
  }
  return out;
}

/** What the checks of a sent transaction need to know of the chain (at head, for the next block). */
export interface PoolRules {
  readonly chainId: bigint;
  readonly nonce: bigint;
  readonly balance: bigint;
  /** The next block's base fee; undefined before London. */
  readonly baseFee: bigint | undefined;
  readonly blockGasLimit: bigint;
  /** The lowest tip (or legacy gas price) accepted (anvil_setMinGasPrice; 0 by default). */
  readonly minTip: bigint;
  /** Accept legacy transactions without EIP-155 replay protection (--allow-unprotected-txs). */
  readonly allowUnprotected: boolean;
}

/**
 * Checks a sent transaction as geth's txpool does, with its messages; answers the pool entry it replaces (same
 * sender and nonce, both fee caps raised by 10% at least), if any. Throws TxRejected otherwise.
 */
export function checkTransaction(tx: TypedTransaction, sender: Address, pool: readonly PendingTx[], rules: PoolRules): PendingTx | undefined {
  const hash = plainHex(tx.hash());
  if (pool.some((p) => plainHex(p.tx.hash()) === hash)) throw new TxRejected('already known');
  if (tx.type === 0 && !tx.supports(Capability.EIP155ReplayProtection) && !rules.allowUnprotected)
    throw new TxRejected('only replay-protected (EIP-155) transactions allowed over RPC');
  if (tx.gasLimit > rules.blockGasLimit) throw new TxRejected('exceeds block gas limit');
  const { feeCap, tipCap } = feeCaps(tx);
  if (tipCap > feeCap) throw new TxRejected('max priority fee per gas higher than max fee per gas');
  const intrinsic = tx.getIntrinsicGas();
  if (tx.gasLimit < intrinsic) throw new TxRejected(`intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${intrinsic}`);
  if (tx.nonce < rules.nonce) throw new TxRejected(`nonce too low: next nonce ${rules.nonce}, tx nonce ${tx.nonce}`);
  if (tipCap < rules.minTip) throw new TxRejected('transaction underpriced');
  if (rules.baseFee !== undefined && feeCap < rules.baseFee) {
    throw new TxRejected(`max fee per gas less than block base fee: address ${sender.toString()}, maxFeePerGas: ${feeCap}, baseFee: ${rules.baseFee}`);
  }
  const blob = tx as { maxFeePerBlobGas?: bigint; blobVersionedHashes?: readonly unknown[] };
  const blobCost = blob.maxFeePerBlobGas === undefined ? 0n : BigInt(blob.blobVersionedHashes?.length ?? 0) * GAS_PER_BLOB * blob.maxFeePerBlobGas;
  const total = tx.getUpfrontCost() + blobCost;
  if (rules.balance < total)
    throw new TxRejected(`insufficient funds for gas * price + value: balance ${rules.balance}, tx cost ${total}, overshot ${total - rules.balance}`);
  const same = pool.find((p) => p.sender.equals(sender) && p.tx.nonce === tx.nonce);
  if (same === undefined) return undefined;
  const old = feeCaps(same.tx);
  const bump = (v: bigint) => v + (v * PRICE_BUMP_PERCENT) / 100n;
  if (feeCap < bump(old.feeCap) || tipCap < bump(old.tipCap)) throw new TxRejected('replacement transaction underpriced');
  return same;
}

/**
 * The pool's transactions queued (behind a nonce gap) at the start of a block, by the nonces of its state before any
 * transaction: geth's miner takes only pending transactions, so one whose gap an earlier transaction of the same block
 * fills (a set-code transaction's authorization raises the authority's nonce, EIP-7702) waits for the next block
 * (miner/worker.go fillTransactions takes txpool.Pending). Answered with geth's nonce too high text.
 */
export async function queuedAtStart(draft: BlockDraft, pool: readonly PendingTx[]): Promise<Map<PendingTx, string>> {
  const state = draft.vm.stateManager;
  const nonces = new Map<string, bigint>();
  const { queued } = await poolView(pool, async (sender) => {
    const nonce = (await state.getAccount(sender))?.nonce ?? 0n;
    nonces.set(sender.toString(), nonce);
    return nonce;
  });
  const out = new Map<PendingTx, string>();
  for (const [key, list] of queued) {
    for (const p of list) out.set(p, `nonce too high: address ${toChecksumAddress(key)}, tx: ${p.tx.nonce} state: ${nonces.get(key)}`);
  }
  return out;
}

/** Adds the pool's transactions to a draft in block order; those that do not apply (nonce gap, funds, gas) are answered with the reason. */
export async function fillFromPool(draft: BlockDraft, pool: readonly PendingTx[]): Promise<SkippedTx[]> {
  const skipped: SkippedTx[] = [];
  if (pool.length === 0) return skipped;
  // On a fork: every pending transaction's known keys in one batch request, rather than a round trip each.
  await draft.prefetch(pool);
  const queued = await queuedAtStart(draft, pool);
  for (const p of orderForBlock(pool, draft.context.header.baseFeePerGas)) {
    const gap = queued.get(p);
    if (gap !== undefined) {
      skipped.push({ pending: p, error: gap });
      continue;
    }
    try {
      await draft.add(p.tx, p.sender);
    } catch (err) {
      skipped.push({ pending: p, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return skipped;
}

export { partitionByHash } from '../chain/poolList.js';
