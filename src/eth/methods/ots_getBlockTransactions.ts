import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { otsBlockTransactions } from '../format/ots.js';
import { otsNumber, pageSize } from './otsParams.js';

/**
 * ots_getBlockTransactions: page `pageNumber` (from 0, the block's first transactions first, as anvil) of
 * `pageSize` (1 to 100; Otterscan asks for 25) transactions of a mined block, as `{ fullblock, receipts }`: the block
 * with that page's full transactions and `transactionCount`, and their receipts with the block's `timestamp`. A block
 * not mined: null.
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_getBlockTransactions","params":[1,0,25]}
 */
export const ots_getBlockTransactions = defineMethod({
  name: 'ots_getBlockTransactions',
  params: [required('blockNumber', otsNumber), required('pageNumber', otsNumber), required('pageSize', pageSize)],
  handler: (ctx: EthContext, n, page, size) => {
    const block = ctx.chain.blockByNumber(n);
    if (block === undefined) return null;
    const count = BigInt(block.txHashes.length);
    const from = page * BigInt(size) > count ? count : page * BigInt(size);
    const to = from + BigInt(size) > count ? count : from + BigInt(size);
    return otsBlockTransactions(block, Number(from), Number(to));
  },
});
