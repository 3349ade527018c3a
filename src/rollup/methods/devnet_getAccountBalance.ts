import { defineMethod, optional, required } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { RollupControls } from '../engine/controls.js';
import { blockId, felt } from '../params.js';
import { decimal, feeUnit } from './devnetParams.js';
import { feltParam } from '../starknet/methods/reveals.js';

/**
 * devnet_getAccountBalance: a fee-token balance (`unit` FRI by default, or WEI) at `block_id`
 * (default latest), as a decimal string; 0 where no contract is. Unknown block: 24.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_getAccountBalance","params":{"address":"0x64b4...691","unit":"WEI"}}
 *   -> {"amount":"1000000000000000000000","unit":"WEI"}
 */
export const devnet_getAccountBalance = defineMethod({
  name: 'devnet_getAccountBalance',
  facts: { dev: true, reveals: feltParam(0, 'address') },
  named: true,
  params: [required('address', felt), optional('unit', feeUnit), optional('block_id', blockId)],
  handler: (ctx: RollupContext, address, unit, id) => {
    const u = unit ?? 'FRI';
    return { amount: decimal(RollupControls.of(ctx.chain).balance(address, u, id)), unit: u };
  },
});
