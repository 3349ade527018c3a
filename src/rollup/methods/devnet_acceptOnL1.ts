import { InvalidArgument } from '../../errors.js';
import { defineMethod, optional } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { feltHex } from '../format.js';
import { blockId } from '../params.js';

/**
 * devnet_acceptOnL1: makes a block (default: latest) and its ancestors ACCEPTED_ON_L1; answers
 * the hashes that changed status, oldest first. The block is `block_id`, or `starting_block_id` as
 * starknet-devnet names it.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_acceptOnL1","params":{"block_id":{"block_number":5}}} -> {"accepted":["0x..."]}
 */
export const devnet_acceptOnL1 = defineMethod({
  name: 'devnet_acceptOnL1',
  facts: { dev: true },
  named: true,
  params: [optional('block_id', blockId), optional('starting_block_id', blockId)],
  handler: (ctx: RollupContext, id, starting) => {
    if (id !== undefined && starting !== undefined) throw new InvalidArgument('give block_id or starting_block_id, not both');
    return { accepted: ctx.chain.acceptOnL1(id ?? starting ?? { tag: 'latest' }).map((b) => feltHex(b.hash)) };
  },
});
