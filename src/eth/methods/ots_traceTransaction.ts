import { defineMethod, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { callTreeOf } from '../engine/query/otsTraces.js';
import { otsTrace } from '../format/ots.js';
import { minedTx } from './otsParams.js';
import { revealsAny } from './reveals.js';

/**
 * ots_traceTransaction: a mined transaction's call tree (callTracer, run again) flattened in pre-order as Erigon
 * answers it: `{ type, depth, from, to, value, input, output }` per frame, CALL, STATICCALL, DELEGATECALL, CALLCODE,
 * CREATE, CREATE2 and SELFDESTRUCT (value null for STATICCALL and DELEGATECALL). anvil leaves creations and
 * self-destructs out; devgate lists them, as Erigon. Unknown transaction: -32000 "transaction not found".
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_traceTransaction","params":["0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b"]}
 */
export const ots_traceTransaction = defineMethod({
  name: 'ots_traceTransaction',
  facts: { heavy: true, reveals: revealsAny },
  params: [required('transactionHash', hash32)],
  handler: async (ctx: EthContext, hash) => {
    const { block, index } = minedTx(ctx, hash);
    return otsTrace(await callTreeOf(ctx.chain, block, index));
  },
});
