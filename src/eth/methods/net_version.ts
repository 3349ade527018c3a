import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';

/**
 * net_version: the network id as a decimal string (devgate uses the chain id, as anvil does).
 * @example {"jsonrpc":"2.0","id":1,"method":"net_version","params":[]} -> "1"
 */
export const net_version = defineMethod({
  name: 'net_version',
  params: [],
  handler: (ctx: EthContext) => ctx.chain.chainId.toString(10),
});
