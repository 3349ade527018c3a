import { bytesHex } from '../../../hex.js';
import { defineMethod, required } from '../../../rpc/method.js';
import { hash32 } from '../../../rpc/params.js';
import type { EthContext } from '../../context.js';

/**
 * anvil_dropTransaction (also hardhat_dropTransaction): takes a transaction out of the pool; answers its hash,
 * or null when the pool does not hold it.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_dropTransaction","params":["0x5c50..."]} -> "0x5c50..."
 */
export const anvil_dropTransaction = defineMethod({
  name: 'anvil_dropTransaction',
  facts: { dev: true, persists: true },
  params: [required('transactionHash', hash32)],
  handler: async (ctx: EthContext, hash) => ((await ctx.node.dropTransactions([hash])).length > 0 ? bytesHex(hash) : null),
});

/** hardhat_dropTransaction: like anvil_dropTransaction, answering whether it was dropped. */
export const hardhat_dropTransaction = defineMethod({
  name: 'hardhat_dropTransaction',
  facts: { dev: true, persists: true },
  params: [required('transactionHash', hash32)],
  handler: async (ctx: EthContext, hash) => (await ctx.node.dropTransactions([hash])).length > 0,
});
