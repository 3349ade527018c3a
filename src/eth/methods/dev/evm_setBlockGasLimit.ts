import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { numberOrQuantity } from './params.js';

/**
 * evm_setBlockGasLimit: the gas limit of every following block; answers true.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_setBlockGasLimit","params":["0x1c9c380"]} -> true
 */
export const evm_setBlockGasLimit = defineMethod({
  name: 'evm_setBlockGasLimit',
  facts: { dev: true, persists: true },
  params: [required('gasLimit', numberOrQuantity)],
  handler: (ctx: EthContext, limit) => {
    ctx.miner.setBlockGasLimit(limit);
    return true;
  },
});
