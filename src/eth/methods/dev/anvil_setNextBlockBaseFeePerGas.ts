import { defineMethod, required } from '../../../rpc/method.js';
import { quantity } from '../../../rpc/params.js';
import type { EthContext } from '../../context.js';

/**
 * anvil_setNextBlockBaseFeePerGas (also hardhat_setNextBlockBaseFeePerGas): the next block's base fee, once.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setNextBlockBaseFeePerGas","params":["0x3b9aca00"]} -> null
 */
export const anvil_setNextBlockBaseFeePerGas = defineMethod({
  name: 'anvil_setNextBlockBaseFeePerGas',
  facts: { dev: true, persists: true },
  params: [required('baseFeePerGas', quantity)],
  handler: (ctx: EthContext, fee) => {
    ctx.miner.setNextBlockBaseFeePerGas(fee);
    return null;
  },
});

/** hardhat_setNextBlockBaseFeePerGas: the same as anvil_setNextBlockBaseFeePerGas. */
export const hardhat_setNextBlockBaseFeePerGas = { ...anvil_setNextBlockBaseFeePerGas, name: 'hardhat_setNextBlockBaseFeePerGas' };
