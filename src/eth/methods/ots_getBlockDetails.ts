import { defineMethod, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { otsBlockDetails } from '../format/ots.js';
import { otsNumber } from './otsParams.js';

/**
 * ots_getBlockDetails: a mined block without its transaction list, with `transactionCount`, `issuance` (zero: the
 * dev chains pay no block rewards) and `totalFees` (gas used times effective price over its transactions, as anvil);
 * the number as a JSON number (as Otterscan sends it) or a quantity. A block not mined: null.
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_getBlockDetails","params":[1]}
 */
export const ots_getBlockDetails = defineMethod({
  name: 'ots_getBlockDetails',
  params: [required('blockNumber', otsNumber)],
  handler: (ctx: EthContext, n) => {
    const block = ctx.chain.blockByNumber(n);
    return block === undefined ? null : otsBlockDetails(block);
  },
});

/**
 * ots_getBlockDetailsByHash: ots_getBlockDetails of the block with this hash; unknown: null.
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_getBlockDetailsByHash","params":["0x..."]}
 */
export const ots_getBlockDetailsByHash = defineMethod({
  name: 'ots_getBlockDetailsByHash',
  params: [required('blockHash', hash32)],
  handler: (ctx: EthContext, hash) => {
    const block = ctx.chain.blockByHash(hash);
    return block === undefined ? null : otsBlockDetails(block);
  },
});
