import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { filtersOf } from './filters.js';

/**
 * eth_newPendingTransactionFilter: a filter of the hashes of transactions entering the pool.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_newPendingTransactionFilter","params":[]} -> "0x2"
 */
export const eth_newPendingTransactionFilter = defineMethod({
  name: 'eth_newPendingTransactionFilter',
  facts: { filter: true },
  params: [],
  handler: (ctx: EthContext) => quantityHex(filtersOf(ctx).newPendingTransactionFilter()),
});
