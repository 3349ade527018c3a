import { defineMethod, required } from '../../../rpc/method.js';
import { hexData } from '../../../rpc/params.js';
import { setCode } from '../../engine/control/stateEdits.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';
import { revealsAny } from '../reveals.js';

/**
 * anvil_setCode (also hardhat_setCode): sets the code at an address (`0x` removes it).
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setCode","params":["0x00000000000000000000000000000000000000c1","0x6000"]} -> true
 */
export const anvil_setCode = defineMethod({
  name: 'anvil_setCode',
  facts: { dev: true, persists: true, reveals: revealsAny },
  params: [required('address', addressParam), required('code', hexData)],
  handler: async (ctx: EthContext, address, code) => {
    await ctx.node.editState(setCode(address, code));
    return true;
  },
});

/** hardhat_setCode: the same as anvil_setCode. */
export const hardhat_setCode = { ...anvil_setCode, name: 'hardhat_setCode' };

/** evm_setAccountCode: ganache's name for the same (viem's setCode in ganache mode). */
export const evm_setAccountCode = { ...anvil_setCode, name: 'evm_setAccountCode' };
