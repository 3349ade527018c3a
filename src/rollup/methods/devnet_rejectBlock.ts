import { defineMethod, required } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { feltHex } from '../format.js';
import { blockId } from '../params.js';

/**
 * devnet_rejectBlock: rejects a PENDING or ACCEPTED_ON_L2 block with its descendants; the chain
 * continues from its parent. Answers the rejected hashes, oldest first.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_rejectBlock","params":{"block_id":"latest"}} -> {"rejected":["0x..."]}
 */
export const devnet_rejectBlock = defineMethod({
  name: 'devnet_rejectBlock',
  facts: { dev: true },
  named: true,
  params: [required('block_id', blockId)],
  handler: (ctx: RollupContext, id) => ({ rejected: ctx.chain.rejectBlock(id).map((b) => feltHex(b.hash)) }),
});
