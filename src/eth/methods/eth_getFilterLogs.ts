import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import type { LogQuery } from '../params.js';
import { eth_getLogs } from './eth_getLogs.js';
import { filterId, filtersOf } from './filters.js';

/**
 * eth_getFilterLogs: every log a log filter's query matches, as eth_getLogs answers that query.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getFilterLogs","params":["0x1"]} -> [{"address":"0x5fbd...", ...}]
 */
export const eth_getFilterLogs = defineMethod({
  name: 'eth_getFilterLogs',
  facts: { heavy: true, filter: true },
  params: [required('id', filterId)],
  handler: (ctx: EthContext, id) => eth_getLogs.handler(ctx, filtersOf(ctx).logQuery(id) as LogQuery),
});
