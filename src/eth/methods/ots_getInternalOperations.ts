import { defineMethod, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { callTreeOf } from '../engine/query/otsTraces.js';
import { otsInternalOperations } from '../format/ots.js';
import { minedTx } from './otsParams.js';
import { revealsAny } from './reveals.js';

/**
 * ots_getInternalOperations: the value moves inside a mined transaction, `{ type, from, to, value }` with Erigon's
 * types (0 transfer, 1 self-destruct, 2 create, 3 create2): internal frames only, as Erigon (anvil also lists the top
 * call), and none of a frame that failed. Unknown transaction: -32000 "transaction not found".
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_getInternalOperations","params":["0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b"]}
 */
export const ots_getInternalOperations = defineMethod({
  name: 'ots_getInternalOperations',
  facts: { heavy: true, reveals: revealsAny },
  params: [required('transactionHash', hash32)],
  handler: async (ctx: EthContext, hash) => {
    const { block, index } = minedTx(ctx, hash);
    return otsInternalOperations(await callTreeOf(ctx.chain, block, index));
  },
});
