import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { searchAfter, searchBefore } from '../engine/query/otsSearch.js';
import { otsSearchPage } from '../format/ots.js';
import { addressParam } from '../params.js';
import { otsNumber, pageSize } from './otsParams.js';
import { addressAt } from './reveals.js';

/**
 * ots_searchTransactionsBefore: the transactions that touch an address (send it, name it as `to`, create it, or call,
 * create or self-destruct from or to it in any internal frame) in blocks before `blockNumber` (0: from head), newest
 * first, in whole blocks until at least `pageSize` (1 to 100; Otterscan asks for 25) are found, with their receipts,
 * `firstPage` (nothing newer) and `lastPage` (nothing older). Bounded: at most 100,000 blocks scanned and 2,000
 * transactions run again per call (past it: -32005 naming the limit), yielding to other requests every 32 blocks.
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_searchTransactionsBefore","params":["0x70997970c51812dc3a010c7d01b50e0d17dc79c8",0,25]}
 */
export const ots_searchTransactionsBefore = defineMethod({
  name: 'ots_searchTransactionsBefore',
  facts: { heavy: true, reveals: addressAt(0) },
  params: [required('address', addressParam), required('blockNumber', otsNumber), required('pageSize', pageSize)],
  handler: async (ctx: EthContext, address, before, size) => otsSearchPage(await searchBefore(ctx.chain, address, before, size)),
});

/**
 * ots_searchTransactionsAfter: as ots_searchTransactionsBefore, in blocks after `blockNumber` (0: from genesis),
 * oldest blocks first but answered newest first, as Otterscan wants.
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_searchTransactionsAfter","params":["0x70997970c51812dc3a010c7d01b50e0d17dc79c8",0,25]}
 */
export const ots_searchTransactionsAfter = defineMethod({
  name: 'ots_searchTransactionsAfter',
  facts: { heavy: true, reveals: addressAt(0) },
  params: [required('address', addressParam), required('blockNumber', otsNumber), required('pageSize', pageSize)],
  handler: async (ctx: EthContext, address, after, size) => otsSearchPage(await searchAfter(ctx.chain, address, after, size)),
});
