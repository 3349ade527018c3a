import { defineMethod, required } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { RollupControls } from '../engine/controls.js';
import { feltHex } from '../format.js';
import { blockId } from '../params.js';

/**
 * devnet_abortBlocks: starknet-devnet's name for devnet_rejectBlock. Aborts `starting_block_id` (the
 * pending block is sealed first) and every later block: they become REJECTED (readable by hash), the
 * chain and its state continue from the parent. Answers the aborted hashes, newest first.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_abortBlocks","params":{"starting_block_id":{"block_number":3}}} -> {"aborted":["0x...","0x..."]}
 */
export const devnet_abortBlocks = defineMethod({
  name: 'devnet_abortBlocks',
  facts: { dev: true },
  named: true,
  params: [required('starting_block_id', blockId)],
  handler: (ctx: RollupContext, id) => ({
    aborted: RollupControls.of(ctx.chain)
      .abortBlocks(id)
      .map((b) => feltHex(b.hash)),
  }),
});
