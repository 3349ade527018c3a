import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';

/**
 * anvil_setCoinbase (also hardhat_setCoinbase): the fee recipient (`miner`) of every following block.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setCoinbase","params":["0x00000000000000000000000000000000000000c1"]} -> null
 */
export const anvil_setCoinbase = defineMethod({
  name: 'anvil_setCoinbase',
  facts: { dev: true, persists: true },
  params: [required('address', addressParam)],
  handler: (ctx: EthContext, address) => {
    ctx.miner.setCoinbase(address);
    return null;
  },
});

/** hardhat_setCoinbase: the same as anvil_setCoinbase. */
export const hardhat_setCoinbase = { ...anvil_setCoinbase, name: 'hardhat_setCoinbase' };
