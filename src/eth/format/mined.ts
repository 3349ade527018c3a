/**
 * What the formatters read of a mined block, decoded no further than needed: a restored block
 * (chainImage.ts) gives its header's and transactions' fields straight from its RLP (rawBlock.ts), without
 * @ethereumjs objects; a built block gives them from its Block.
 */
import type { HeaderFields, MinedBlock, StoredReceipt, TxFields, TxTypeAndTo, WithdrawalFields } from '../engine/chain/types.js';

/** The fields of the transaction at `index` (which must exist). */
export function txOf(mined: MinedBlock, index: number): TxFields {
  return mined.raw?.txFields(index) ?? mined.block.transactions[index]!;
}

/** Type and recipient of the transaction at `index` (which must exist): all a receipt reads of it. */
export function txTypeAndToOf(mined: MinedBlock, index: number): TxTypeAndTo {
  return mined.raw?.txTypeAndTo(index) ?? mined.block.transactions[index]!;
}

/** The receipt of the transaction at `index` (which must exist). */
export function receiptOf(mined: MinedBlock, index: number): StoredReceipt {
  return mined.receiptAt?.(index) ?? mined.receipts[index]!;
}

/** The fields of the block's header. */
export function headerOf(mined: MinedBlock): HeaderFields {
  return mined.raw?.header ?? mined.header;
}

/** RLP sizes of built blocks already formatted (a block never changes once built). */
const sizes = new WeakMap<MinedBlock, number>();

/** The length of the block's RLP (geth's Block.Size()). */
export function blockSizeOf(mined: MinedBlock): number {
  if (mined.raw !== undefined) return mined.raw.size;
  let size = sizes.get(mined);
  if (size === undefined) sizes.set(mined, (size = mined.block.serialize().length));
  return size;
}

/** The hashes of the block's uncles. */
export function uncleHashesOf(mined: MinedBlock): readonly Uint8Array[] {
  return mined.raw?.uncleHashes ?? mined.block.uncleHeaders.map((u) => u.hash());
}

/** The block's withdrawals; undefined before Shanghai. */
export function withdrawalsOf(mined: MinedBlock): readonly WithdrawalFields[] | undefined {
  return mined.raw !== undefined ? mined.raw.withdrawals : mined.block.withdrawals;
}
