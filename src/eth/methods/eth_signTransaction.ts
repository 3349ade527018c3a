import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { checkTxFee } from '../engine/mining/txFeeCap.js';
import { sendObject } from './sendParams.js';

/**
 * eth_signTransaction: fills a request as eth_sendTransaction does and signs it with a dev account's key;
 * answers the raw signed transaction (nothing is sent).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_signTransaction","params":[{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","to":"0x00000000000000000000000000000000000000c1","value":"0x1"}]} -> "0x02f8..."
 */
export const eth_signTransaction = defineMethod({
  name: 'eth_signTransaction',
  params: [required('transaction', sendObject)],
  handler: async (ctx: EthContext, req) => {
    const tx = await ctx.node.signRequest(req);
    checkTxFee(tx, ctx.node.pool.txFeeCap ?? 0); // geth's SignTransaction checks the RPC fee cap too
    return bytesHex(tx.serialize());
  },
});
