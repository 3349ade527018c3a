import { defineMethod, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { callTreeOf, intrinsicGasOfTx } from '../engine/query/otsTraces.js';
import { parityTraces } from '../format/parityTrace.js';
import { revealsAny } from './reveals.js';

/**
 * trace_transaction (parity, as Erigon, reth and anvil answer it): a mined transaction's flat traces, from
 * callTracer's tree of a run again (see debug_traceTransaction): `action`, `result` (or `error`: parity's words,
 * "Reverted", "Out of gas", ...), `subtraces`, `traceAddress`, `type` call / create / suicide, with the block and
 * transaction they belong to. The top call's gas leaves out the intrinsic gas, as parity counts. Unknown or pending
 * transaction: null, as reth.
 * @example {"jsonrpc":"2.0","id":1,"method":"trace_transaction","params":["0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b"]}
 */
export const trace_transaction = defineMethod({
  name: 'trace_transaction',
  facts: { heavy: true, reveals: revealsAny },
  params: [required('transactionHash', hash32)],
  handler: async (ctx: EthContext, hash) => {
    const found = ctx.chain.transaction(hash);
    if (found === undefined || found.kind !== 'mined') return null;
    const { block, index } = found;
    const top = await callTreeOf(ctx.chain, block, index);
    return parityTraces(top, intrinsicGasOfTx(block, index), {
      blockHash: block.hash,
      blockNumber: block.number,
      txHash: block.txHashes[index]!,
      txIndex: index,
    });
  },
});
