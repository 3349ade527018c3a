import { defineMethod, required } from '../../../rpc/method.js';
import { setNonce } from '../../engine/control/stateEdits.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';
import { numberOrQuantity } from './params.js';
import { addressAt } from '../reveals.js';

/**
 * anvil_setNonce (also hardhat_setNonce): sets an address's nonce.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setNonce","params":["0x00000000000000000000000000000000000000c1","0x5"]} -> true
 */
export const anvil_setNonce = defineMethod({
  name: 'anvil_setNonce',
  facts: { dev: true, persists: true, reveals: addressAt(0) },
  params: [required('address', addressParam), required('nonce', numberOrQuantity)],
  handler: async (ctx: EthContext, address, nonce) => {
    await ctx.node.editState(setNonce(address, nonce));
    return true;
  },
});

/** hardhat_setNonce: the same as anvil_setNonce. */
export const hardhat_setNonce = { ...anvil_setNonce, name: 'hardhat_setNonce' };
