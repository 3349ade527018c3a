import { quantityHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { logFilterParam } from '../params.js';
import { filtersOf, rangeBound } from './filters.js';
import { logQueryReveals } from './reveals.js';

/**
 * eth_newFilter: a polling log filter (address and topics as eth_getLogs; fromBlock/toBlock bound which new
 * blocks' logs it takes, latest leaves the range open); answers its id for eth_getFilterChanges /
 * eth_getFilterLogs. Logs of blocks that leave the chain (evm_revert, anvil_reset) come again with removed: true.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_newFilter","params":[{"address":"0x5fbdb2315678afecb367f032d93f642f64180aa3"}]} -> "0x1"
 */
export const eth_newFilter = defineMethod({
  name: 'eth_newFilter',
  facts: { filter: true, reveals: logQueryReveals },
  params: [required('filter', logFilterParam)],
  handler: (ctx: EthContext, q) =>
    quantityHex(
      filtersOf(ctx).newLogFilter(
        { filter: q.filter, blockHash: q.blockHash, fromBlock: rangeBound(ctx.chain, q.fromBlock), toBlock: rangeBound(ctx.chain, q.toBlock) },
        q,
      ),
    ),
});
