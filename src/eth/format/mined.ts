/**
 * What the formatters read of a mined block, decoded no further than needed: a restored block
 * (snapshot.ts) gives its header, one transaction and the transaction hashes without decoding its
 * whole Block; a built block gives them from its Block.
 */
import type { BlockHeader } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { MinedBlock } from '../engine/types.js';

export function headerOf(mined: MinedBlock): BlockHeader {
  return mined.header ?? mined.block.header;
}

/** The transaction at `index` (which must exist). */
export function txOf(mined: MinedBlock, index: number): TypedTransaction {
  return mined.transactionAt?.(index) ?? mined.block.transactions[index]!;
}

export function txCount(mined: MinedBlock): number {
  return mined.txHashes?.length ?? mined.block.transactions.length;
}
