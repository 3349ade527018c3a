import { defineMethod, required } from '../../rpc/method.js';
import { hexData } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { signMessage } from '../engine/wallet/sign.js';
import { addressParam } from '../params.js';

/**
 * eth_sign: an EIP-191 signature of the given bytes by a dev account (params: address, data), as geth's.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_sign","params":["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","0x68656c6c6f"]}
 */
export const eth_sign = defineMethod({
  name: 'eth_sign',
  params: [required('address', addressParam), required('data', hexData)],
  handler: (ctx: EthContext, address, data) => signMessage(ctx.chain, address, data),
});
