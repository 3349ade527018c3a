import { InvalidArgument } from '../../errors.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { signTypedData } from '../engine/wallet/sign.js';
import { addressParam } from '../params.js';

/** Typed data as a JSON string (as viem and MetaMask send it) or an object. */
const typedDataParam = (value: unknown): unknown => {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      throw new InvalidArgument('typed data: not valid JSON');
    }
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new InvalidArgument('typed data: expected an object { types, primaryType, domain, message }');
  return v;
};

/**
 * eth_signTypedData_v4: an EIP-712 signature of typed data by a dev account.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_signTypedData_v4","params":["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","{\"types\":{...},\"primaryType\":\"Mail\",\"domain\":{...},\"message\":{...}}"]}
 */
export const eth_signTypedData_v4 = defineMethod({
  name: 'eth_signTypedData_v4',
  params: [required('address', addressParam), required('typedData', typedDataParam)],
  handler: (ctx: EthContext, address, typed) => signTypedData(ctx.chain, address, typed),
});
