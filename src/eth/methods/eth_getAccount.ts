import { KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import { bytesHex, quantityHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { addressParam, stateBlock } from '../params.js';
import { addressAt } from './reveals.js';

/**
 * eth_getAccount (geth): an account's trie fields at a block, `{ codeHash, storageRoot, balance, nonce }`; an
 * account that does not exist answers the empty account's (the empty code hash and the empty trie's root), as
 * geth and anvil do.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getAccount","params":["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","latest"]}
 */
export const eth_getAccount = defineMethod({
  name: 'eth_getAccount',
  facts: { reveals: addressAt(0) },
  params: [required('address', addressParam), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, sel) => {
    const account = await ctx.chain.getAccount(address, await stateBlock(ctx.node, sel));
    return {
      codeHash: bytesHex(account?.codeHash ?? KECCAK256_NULL),
      storageRoot: bytesHex(account?.storageRoot ?? KECCAK256_RLP),
      balance: quantityHex(account?.balance ?? 0n),
      nonce: quantityHex(account?.nonce ?? 0n),
    };
  },
});
