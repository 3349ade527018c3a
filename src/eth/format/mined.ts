/**
 * What the formatters read of a mined block, decoded no further than needed: a restored block
 * (snapshot.ts) gives one transaction without decoding its whole Block; a built block gives it from its Block.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { MinedBlock } from '../engine/types.js';

/** The transaction at `index` (which must exist). */
export function txOf(mined: MinedBlock, index: number): TypedTransaction {
  return mined.transactionAt?.(index) ?? mined.block.transactions[index]!;
}
