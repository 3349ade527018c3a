import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { gethBytes } from '../gethParams.js';
import type { EthContext } from '../context.js';

/**
 * eth_sendRawTransaction: sends a signed transaction (legacy, or typed 0x01-0x04; a blob transaction in its
 * network form) and answers its hash. With automine (the default) it is mined before the answer, so its
 * receipt is there on the next request; a refused transaction answers -32000 with the reason and leaves
 * nothing behind.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["0x02f8..."]} -> "0x5c50..."
 */
export const eth_sendRawTransaction = defineMethod({
  name: 'eth_sendRawTransaction',
  params: [required('transaction', gethBytes)],
  handler: async (ctx: EthContext, raw) => {
    return bytesHex((await ctx.node.sendRaw(raw)).hash);
  },
});
