import { defineMethod, required } from '../../../rpc/method.js';
import { quantity } from '../../../rpc/params.js';
import { setBalance } from '../../engine/control/stateEdits.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';
import { addressAt } from '../reveals.js';

/**
 * anvil_setBalance (also hardhat_setBalance): sets an address's balance in wei; reads at latest see it at once,
 * the next block commits it.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setBalance","params":["0x00000000000000000000000000000000000000c1","0xde0b6b3a7640000"]} -> true
 */
export const anvil_setBalance = defineMethod({
  name: 'anvil_setBalance',
  facts: { dev: true, persists: true, reveals: addressAt(0) },
  params: [required('address', addressParam), required('balance', quantity)],
  handler: async (ctx: EthContext, address, wei) => {
    await ctx.node.editState(setBalance(address, wei));
    return true;
  },
});

/** hardhat_setBalance: the same as anvil_setBalance. */
export const hardhat_setBalance = { ...anvil_setBalance, name: 'hardhat_setBalance' };

/** evm_setAccountBalance: ganache's name for the same (viem's setBalance in ganache mode). */
export const evm_setAccountBalance = { ...anvil_setBalance, name: 'evm_setAccountBalance' };
