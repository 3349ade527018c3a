import { bytesHex } from '../../../hex.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { sendObject } from '../sendParams.js';

/**
 * eth_sendUnsignedTransaction (anvil's; viem's `sendUnsignedTransaction` test action): sends a transaction from any
 * `from` without its key, filled as eth_sendTransaction fills it, as if the address were impersonated for this one
 * request; answers the hash. A dev method.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_sendUnsignedTransaction","params":[{"from":"0x00000000000000000000000000000000000000c1","to":"0x00000000000000000000000000000000000000c2","value":"0x1"}]}
 */
export const eth_sendUnsignedTransaction = defineMethod({
  name: 'eth_sendUnsignedTransaction',
  facts: { dev: true, persists: true },
  params: [required('transaction', sendObject)],
  handler: async (ctx: EthContext, req) => bytesHex((await ctx.node.sendUnsigned(req)).hash),
});
