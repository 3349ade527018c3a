import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { txBySenderAndNonce } from '../engine/query/otsSearch.js';
import { txHashHex } from '../format/wireText.js';
import { addressParam } from '../params.js';
import { otsNumber } from './otsParams.js';
import { addressAt } from './reveals.js';

/**
 * ots_getTransactionBySenderAndNonce: the hash of the mined transaction an address sent with a nonce, or null: the
 * block where the sender's nonce passes it is found by halving the chain (a few state reads), then searched.
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_getTransactionBySenderAndNonce","params":["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",0]}
 */
export const ots_getTransactionBySenderAndNonce = defineMethod({
  name: 'ots_getTransactionBySenderAndNonce',
  facts: { reveals: addressAt(0) },
  params: [required('sender', addressParam), required('nonce', otsNumber)],
  handler: async (ctx: EthContext, sender, nonce) => {
    const found = await txBySenderAndNonce(ctx.chain, sender, nonce);
    return found === undefined ? null : txHashHex(found.block, found.index);
  },
});
