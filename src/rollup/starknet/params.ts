/**
 * Block ids of the `starknet_` family and their resolution: a block hash or number, `latest`,
 * `pending` (spec 0.8), `pre_confirmed` and `l1_accepted` (spec 0.9). Unknown blocks are error 24.
 */
import { InvalidArgument, RollupError } from '../../errors.js';
import type { RollupChain } from '../engine/chain.js';
import type { BlockId, PendingBlock, SealedBlock } from '../engine/types.js';
import { blockId } from '../params.js';
import type { Decoder } from '../../rpc/params.js';

export type StarknetBlockId = BlockId | { readonly tag: 'l1_accepted' };

/** `pre_confirmed` is the 0.9 name of the block being filled (0.8's `pending`). */
export const starknetBlockId: Decoder<StarknetBlockId> = (value) => {
  if (value === 'pre_confirmed') return { tag: 'pending' };
  if (value === 'l1_accepted') return { tag: 'l1_accepted' };
  try {
    return blockId(value);
  } catch (err) {
    throw new InvalidArgument((err as Error).message.replace('"latest", "pending"', '"latest", "pending", "pre_confirmed", "l1_accepted"'));
  }
};

/**
 * The block an id means; error 24 when there is none. `pending` is always the block being filled
 * (empty, on the latest block, when nothing is pending), as Starknet nodes answer it; the rollup_
 * family's fallback to `latest` (DESIGN) does not apply here.
 */
export function resolveBlock(chain: RollupChain, id: StarknetBlockId): SealedBlock | PendingBlock {
  if ('tag' in id && id.tag === 'pending') return chain.pending();
  if ('tag' in id && id.tag === 'l1_accepted') {
    for (let n = chain.head().number; n >= 0n; n--) {
      const b = chain.block({ number: n }) as SealedBlock;
      if (b.status === 'ACCEPTED_ON_L1') return b;
    }
    throw new RollupError(24, 'Block not found');
  }
  const block = chain.block(id as BlockId);
  if (block === undefined) throw new RollupError(24, 'Block not found');
  return block;
}

/** The state of a contract at a block; error 20 when it is not deployed there. */
export function contractAt(chain: RollupChain, id: StarknetBlockId, address: bigint) {
  const c = chain.stateAt(resolveBlock(chain, id)).get(address);
  if (c === undefined) throw new RollupError(20, 'Contract not found');
  return c;
}
