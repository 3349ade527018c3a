import { defineMethod } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';

/**
 * anvil_getAutomine (also hardhat_getAutomine): whether automine is on.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_getAutomine","params":[]} -> true
 */
export const anvil_getAutomine = defineMethod({
  name: 'anvil_getAutomine',
  facts: { dev: true },
  params: [],
  handler: (ctx: EthContext) => ctx.miner.mode().automine,
});

/** hardhat_getAutomine: the same as anvil_getAutomine. */
export const hardhat_getAutomine = { ...anvil_getAutomine, name: 'hardhat_getAutomine' };

/** eth_mining: ganache's way to ask the same (viem's getAutomine in ganache mode). */
export const eth_mining = { ...anvil_getAutomine, name: 'eth_mining' };
