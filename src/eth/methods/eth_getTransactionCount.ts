import { quantityHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { nextNonce } from '../engine/wallet/fill.js';
import { addressParam, isPending, stateBlock } from '../params.js';
import { addressAt } from './reveals.js';

/**
 * eth_getTransactionCount: the nonce of an address at a block. At `pending`, geth's pool nonce (GetPoolNonce): the
 * account's nonce past its pooled transactions with consecutive nonces; no pending block is built to answer it.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getTransactionCount","params":["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","pending"]}
 */
export const eth_getTransactionCount = defineMethod({
  name: 'eth_getTransactionCount',
  facts: { reveals: addressAt(0) },
  params: [required('address', addressParam), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, sel) => {
    if (sel !== undefined && isPending(sel)) return quantityHex(await nextNonce(ctx.chain, address));
    const account = await ctx.chain.getAccount(address, await stateBlock(ctx.node, sel));
    return quantityHex(account?.nonce ?? 0n);
  },
});
