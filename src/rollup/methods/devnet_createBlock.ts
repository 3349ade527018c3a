import { defineMethod } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { feltHex } from '../format.js';

/**
 * devnet_createBlock: seals the pending block (empty or not) as ACCEPTED_ON_L2.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_createBlock","params":{}} -> {"block_hash":"0x..."}
 */
export const devnet_createBlock = defineMethod({
  name: 'devnet_createBlock',
  facts: { dev: true },
  named: true,
  params: [],
  handler: (ctx: RollupContext) => ({ block_hash: feltHex(ctx.chain.createBlock().hash) }),
});
