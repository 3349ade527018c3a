/**
 * Block ids of the `starknet_` family and their resolution: a block hash or number, `latest`,
 * `pending` (spec 0.8), `pre_confirmed` and `l1_accepted` (spec 0.9). Unknown blocks are error 24.
 */
import { InvalidArgument, RollupError } from '../../errors.js';
import { isV09, type RollupContext } from '../context.js';
import type { BlockId, PendingBlock, SealedBlock } from '../engine/types.js';
import { blockId } from '../params.js';
import { deployedAt } from '../engine/execute.js';
import type { Decoder } from '../../rpc/params.js';

export type StarknetBlockId = BlockId | { readonly tag: 'l1_accepted' } | { readonly tag: 'pre_confirmed' };

/** `pre_confirmed` is the 0.9 name of the block being filled (0.8's `pending`). */
export const starknetBlockId: Decoder<StarknetBlockId> = (value) => {
  if (value === 'pre_confirmed') return { tag: 'pre_confirmed' };
  if (value === 'l1_accepted') return { tag: 'l1_accepted' };
  try {
    return blockId(value);
  } catch (err) {
    throw new InvalidArgument((err as Error).message.replace('"latest", "pending"', '"latest", "pending", "pre_confirmed", "l1_accepted"'));
  }
};

/**
 * The block an id means; error 24 when there is none. `pending` / `pre_confirmed` is always the block
 * being filled (empty, on the latest block, when nothing is pending), as Starknet nodes answer it; the
 * rollup_ family's fallback to `latest` (DESIGN) does not apply here. Spec 0.9 has no `pending` tag
 * (-32602) and no REJECTED blocks (a rejected block is not found there).
 */
export function resolveBlock(ctx: RollupContext, id: StarknetBlockId): SealedBlock | PendingBlock {
  const chain = ctx.chain;
  if ('tag' in id && id.tag === 'pending' && isV09(ctx))
    throw new InvalidArgument('block tag "pending" is spec 0.8; spec 0.9 calls the block being filled "pre_confirmed"');
  if ('tag' in id && (id.tag === 'pending' || id.tag === 'pre_confirmed')) return chain.pending();
  if ('tag' in id && id.tag === 'l1_accepted') {
    for (let n = chain.head().number; n >= 0n; n--) {
      const b = chain.block({ number: n }) as SealedBlock;
      if (b.status === 'ACCEPTED_ON_L1') return b;
    }
    throw new RollupError(24, 'Block not found');
  }
  const block = chain.block(id as BlockId);
  if (block === undefined || (isV09(ctx) && 'status' in block && block.status === 'REJECTED')) throw new RollupError(24, 'Block not found');
  return block;
}

/** The state of a contract at a block; error 20 when it is not deployed there. */
export function contractAt(ctx: RollupContext, id: StarknetBlockId, address: bigint) {
  const c = deployedAt(ctx.chain.stateAt(resolveBlock(ctx, id)), address);
  if (c === undefined) throw new RollupError(20, 'Contract not found');
  return c;
}
