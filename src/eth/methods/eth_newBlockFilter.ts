import { quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { filtersOf } from './filters.js';

/**
 * eth_newBlockFilter: a filter of the hashes of new blocks; answers its id for eth_getFilterChanges.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_newBlockFilter","params":[]} -> "0x1"
 */
export const eth_newBlockFilter = defineMethod({
  name: 'eth_newBlockFilter',
  facts: { filter: true },
  params: [],
  handler: (ctx: EthContext) => quantityHex(filtersOf(ctx).newBlockFilter()),
});
