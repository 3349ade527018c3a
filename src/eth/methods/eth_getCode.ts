import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { addressParam, stateBlock } from '../params.js';

/** Hex of code already answered, per code object (the chain hands out one object per code while it keeps it; code never changes). */
const hexOfCode = new WeakMap<Uint8Array, string>();

function codeHex(code: Uint8Array): string {
  let hex = hexOfCode.get(code);
  if (hex === undefined) hexOfCode.set(code, (hex = bytesHex(code)));
  return hex;
}

/**
 * eth_getCode: the code of an address at a block; `0x` for an account without code.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getCode","params":["0x5fbdb2315678afecb367f032d93f642f64180aa3","latest"]}
 */
export const eth_getCode = defineMethod({
  name: 'eth_getCode',
  params: [required('address', addressParam), required('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, sel) => codeHex(await ctx.chain.getCode(address, await stateBlock(ctx.chain, sel))),
});
