import { defineMethod, required } from '../../../rpc/method.js';
import { quantity } from '../../../rpc/params.js';
import type { EthContext } from '../../context.js';

/**
 * anvil_setMinGasPrice (also hardhat_setMinGasPrice): the lowest tip (legacy: gas price) the pool accepts; a
 * transaction below it is refused with `transaction underpriced`.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setMinGasPrice","params":["0x3b9aca00"]} -> null
 */
export const anvil_setMinGasPrice = defineMethod({
  name: 'anvil_setMinGasPrice',
  facts: { dev: true, persists: true },
  params: [required('minGasPrice', quantity)],
  handler: (ctx: EthContext, min) => {
    ctx.node.pool.minTip = min;
    return null;
  },
});

/** hardhat_setMinGasPrice: the same as anvil_setMinGasPrice. */
export const hardhat_setMinGasPrice = { ...anvil_setMinGasPrice, name: 'hardhat_setMinGasPrice' };
