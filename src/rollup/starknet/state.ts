/**
 * Reads of the `starknet_` family over a block and its ancestors: the state before a block (for its
 * state update) and the classes its state knows (seed classes, then DECLARE transactions).
 */
import { RollupError } from '../../errors.js';
import type { RollupContext } from '../context.js';
import { findClass } from '../engine/classes.js';
import type { DeclaredClass, Felt, PendingBlock, SealedBlock } from '../engine/types.js';

/** The block and its ancestors, newest first (a rejected block's ancestors through its parent hash). */
function* lineage(ctx: RollupContext, block: SealedBlock | PendingBlock): Generator<SealedBlock | PendingBlock> {
  let b: SealedBlock | PendingBlock | undefined = block;
  while (b !== undefined) {
    yield b;
    if ('number' in b && b.number === 0n) return;
    b = ctx.chain.block({ hash: b.parentHash });
  }
}

/** The block before this one (undefined for genesis). */
export function parentOf(ctx: RollupContext, block: SealedBlock | PendingBlock): SealedBlock | undefined {
  if ('number' in block && block.number === 0n) return undefined;
  return ctx.chain.block({ hash: block.parentHash }) as SealedBlock | undefined;
}

/** The class with this hash in the state after `block`; error 28 when it is not declared there. */
export function classAt(ctx: RollupContext, block: SealedBlock | PendingBlock, classHash: Felt): DeclaredClass {
  const found = findClass(classHash, ctx.chain.config.classes, lineage(ctx, block));
  if (found === undefined) throw new RollupError(28, 'Class hash not found');
  return found;
}
