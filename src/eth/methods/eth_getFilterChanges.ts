import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { filterId, filterLogJson, filtersOf } from './filters.js';
import { logsText } from './logsText.js';

/**
 * eth_getFilterChanges: what a filter saw since it was last polled: block hashes, transaction hashes, or logs
 * (removed: true for logs of blocks that left the chain). An unknown or expired (5 minutes idle) filter:
 * -32000 `filter not found`.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getFilterChanges","params":["0x1"]} -> ["0x7f3c..."]
 */
export const eth_getFilterChanges = defineMethod({
  name: 'eth_getFilterChanges',
  facts: { filter: true },
  params: [required('id', filterId)],
  handler: async (ctx: EthContext, id) => {
    const changes = await filtersOf(ctx).changes(id);
    if (changes.kind !== 'logs') return changes.hashes.map(bytesHex);
    return logsText(changes.logs, filterLogJson);
  },
});
