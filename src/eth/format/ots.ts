/**
 * Otterscan's answers (ots_*, API level 8) in the shapes Erigon and anvil give: block details (the block without its
 * transactions, with `transactionCount`, `issuance` and `totalFees`), a page of a block's transactions with their
 * receipts, search pages, and the call tree as ots_traceTransaction and ots_getInternalOperations list it.
 */
import { bytesHex, quantityHex } from '../../hex.js';
import type { MinedBlock } from '../engine/chain/types.js';
import type { TxAt } from '../engine/query/otsSearch.js';
import type { CallFrame } from '../engine/trace/types.js';
import { formatBlock } from './block.js';
import { headerOf, receiptOf } from './mined.js';
import { formatReceipt } from './receipt.js';
import { formatTransaction, minedPlacement } from './transaction.js';
import { txOf } from './mined.js';
import { txHashHex } from './wireText.js';

/** No block rewards on the dev chains (after the merge, and devgate pays none before it). */
const NO_ISSUANCE = { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' };

/** What the block's transactions paid, gas used times effective price (the base fee burnt included, as anvil). */
function totalFees(mined: MinedBlock): bigint {
  let fees = 0n;
  for (let i = 0; i < mined.txHashes.length; i++) {
    const r = receiptOf(mined, i);
    fees += r.gasUsed * r.effectiveGasPrice;
  }
  return fees;
}

/** ots_getBlockDetails / ByHash: `{ block, issuance, totalFees }`, the block without its transaction list. */
export function otsBlockDetails(mined: MinedBlock): Record<string, unknown> {
  const block = formatBlock(mined, { fullTransactions: false });
  delete block.transactions;
  block.transactionCount = mined.txHashes.length;
  return { block, issuance: NO_ISSUANCE, totalFees: quantityHex(totalFees(mined)) };
}

/** A mined transaction's wire object. */
export function otsTransaction(mined: MinedBlock, index: number): Record<string, unknown> {
  return formatTransaction(txOf(mined, index), mined.senders[index]!, minedPlacement(mined, index), txHashHex(mined, index));
}

/** A receipt with its block's `timestamp`, as Otterscan reads it. */
export function otsReceipt(mined: MinedBlock, index: number): Record<string, unknown> {
  return { ...formatReceipt(mined, index), timestamp: quantityHex(headerOf(mined).timestamp) };
}

/** ots_getBlockTransactions: the block with the page's transactions (and `transactionCount`), and their receipts. */
export function otsBlockTransactions(mined: MinedBlock, from: number, to: number): Record<string, unknown> {
  const fullblock = formatBlock(mined, { fullTransactions: false });
  const indices = Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
  fullblock.transactions = indices.map((i) => otsTransaction(mined, i));
  fullblock.transactionCount = mined.txHashes.length;
  return { fullblock, receipts: indices.map((i) => otsReceipt(mined, i)) };
}

/** ots_searchTransactionsBefore/After: `{ txs, receipts, firstPage, lastPage }`. */
export function otsSearchPage(page: { txs: readonly TxAt[]; firstPage: boolean; lastPage: boolean }): Record<string, unknown> {
  return {
    txs: page.txs.map((t) => otsTransaction(t.block, t.index)),
    receipts: page.txs.map((t) => otsReceipt(t.block, t.index)),
    firstPage: page.firstPage,
    lastPage: page.lastPage,
  };
}

/** ots_traceTransaction: every frame in pre-order with its depth (value null where the opcode passes none). */
export function otsTrace(top: CallFrame): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (f: CallFrame, depth: number) => {
    const noValue = f.type === 'STATICCALL' || f.type === 'DELEGATECALL';
    out.push({
      type: f.type,
      depth,
      from: f.from.toString(),
      to: f.to?.toString() ?? null,
      value: noValue ? null : quantityHex(f.value ?? 0n),
      input: f.type === 'SELFDESTRUCT' ? '0x' : bytesHex(f.input),
      output: bytesHex(f.output ?? new Uint8Array()),
    });
    for (const c of f.calls) walk(c, depth + 1);
  };
  walk(top, 0);
  return out;
}

/** Erigon's operation types. */
const TRANSFER = 0;
const SELF_DESTRUCT = 1;
const CREATE = 2;
const CREATE2 = 3;

/**
 * ots_getInternalOperations: the value moves inside the transaction (Erigon's rule: not the top call): transfers (a
 * CALL with value), creations and self-destructs; those of failed frames (and their subframes) did not happen and
 * are left out.
 */
export function otsInternalOperations(top: CallFrame): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (f: CallFrame, depth: number) => {
    if (f.error !== undefined) return;
    if (depth > 0) {
      const op = (type: number) => out.push({ type, from: f.from.toString(), to: f.to?.toString() ?? null, value: quantityHex(f.value ?? 0n) });
      if (f.type === 'CALL' && (f.value ?? 0n) > 0n) op(TRANSFER);
      else if (f.type === 'SELFDESTRUCT') op(SELF_DESTRUCT);
      else if (f.type === 'CREATE') op(CREATE);
      else if (f.type === 'CREATE2') op(CREATE2);
    }
    for (const c of f.calls) walk(c, depth + 1);
  };
  walk(top, 0);
  return out;
}
