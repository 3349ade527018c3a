import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';

/**
 * eth_blobBaseFee: the blob base fee of the head block (from Cancun on; null before, as geth).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_blobBaseFee","params":[]} -> "0x1"
 */
export const eth_blobBaseFee = defineMethod({
  name: 'eth_blobBaseFee',
  params: [],
  handler: (ctx: EthContext) => {
    const header = ctx.chain.head().block.header;
    return header.excessBlobGas === undefined ? null : quantityHex(header.getBlobGasPrice());
  },
});
