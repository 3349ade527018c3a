import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { sendObject } from './sendParams.js';

/**
 * eth_sendTransaction: sends from a dev account (eth_accounts) or an impersonated address, filling what is
 * missing as geth and anvil do (nonce from the pool, gas by estimate, EIP-1559 fees, chain id; type 2 unless
 * gasPrice is given); answers the hash. Another `from`: -32000 naming it.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_sendTransaction","params":[{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","to":"0x00000000000000000000000000000000000000c1","value":"0x1"}]}
 */
export const eth_sendTransaction = defineMethod({
  name: 'eth_sendTransaction',
  facts: { heavy: true },
  params: [required('transaction', sendObject)],
  handler: async (ctx: EthContext, req) => bytesHex((await ctx.node.sendRequest(req)).hash),
});
