import { quantityHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { addressParam, stateBlock } from '../params.js';
import { addressAt } from './reveals.js';

/**
 * eth_getBalance: the balance in wei of an address at a block (number, tag or EIP-1898 hash).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","latest"]}
 */
export const eth_getBalance = defineMethod({
  name: 'eth_getBalance',
  facts: { reveals: addressAt(0) },
  params: [required('address', addressParam), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, sel) => {
    const account = await ctx.chain.getAccount(address, await stateBlock(ctx.node, sel));
    return quantityHex(account?.balance ?? 0n);
  },
});
