import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';

/**
 * eth_baseFee (geth): the base fee of the next block, in wei: EIP-1559's from head (1 gwei for the first London
 * block), or the one anvil_setNextBlockBaseFeePerGas set; null when the next block is before London, as geth.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_baseFee","params":[]}
 */
export const eth_baseFee = defineMethod({
  name: 'eth_baseFee',
  params: [],
  handler: (ctx: EthContext) => {
    const fee = ctx.miner.nextBaseFee();
    return fee === undefined ? null : quantityHex(fee);
  },
});
