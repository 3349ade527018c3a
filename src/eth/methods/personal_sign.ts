import { defineMethod, optional, required } from '../../rpc/method.js';
import { hexData } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { signMessage } from '../engine/wallet/sign.js';
import { addressParam } from '../params.js';

/**
 * personal_sign: eth_sign with the params the other way round (data, address), as wallets and viem's JSON-RPC
 * accounts send it; a third param (a password) is ignored.
 * @example {"jsonrpc":"2.0","id":1,"method":"personal_sign","params":["0x68656c6c6f","0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"]}
 */
export const personal_sign = defineMethod({
  name: 'personal_sign',
  params: [required('data', hexData), required('address', addressParam), optional('password', (v: unknown) => v)],
  handler: (ctx: EthContext, data, address, _password) => signMessage(ctx.chain, address, data),
});
