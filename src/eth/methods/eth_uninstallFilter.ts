import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { filterId, filtersOf } from './filters.js';

/**
 * eth_uninstallFilter: removes a filter; answers whether there was one.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_uninstallFilter","params":["0x1"]} -> true
 */
export const eth_uninstallFilter = defineMethod({
  name: 'eth_uninstallFilter',
  facts: { filter: true },
  params: [required('id', filterId)],
  handler: (ctx: EthContext, id) => filtersOf(ctx).uninstall(id),
});
