import { ExecutionFailed } from '../../errors.js';
import { defineMethod, required } from '../../rpc/method.js';
import { blockNumberOrTag } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { callTreesOf, intrinsicGasOfTx } from '../engine/query/otsTraces.js';
import { parityTraces } from '../format/parityTrace.js';
import { revealsAny } from './reveals.js';

/**
 * trace_block (parity, as Erigon, reth and anvil answer it): the flat traces of every transaction of a block, in
 * order (see trace_transaction). No reward traces (the dev chains have no block rewards after the merge; anvil omits
 * them too). A block not yet mined: null; `pending`: an error, as reth.
 * @example {"jsonrpc":"2.0","id":1,"method":"trace_block","params":["0x2"]}
 */
export const trace_block = defineMethod({
  name: 'trace_block',
  facts: { heavy: true, reveals: revealsAny },
  params: [required('block', blockNumberOrTag)],
  handler: async (ctx: EthContext, ref) => {
    if ('tag' in ref && ref.tag === 'pending') throw new ExecutionFailed('tracing the pending block is not supported');
    const block = await ctx.node.resolveBlock('tag' in ref ? ref.tag : ref.number);
    if (block === undefined) return null;
    const trees = await callTreesOf(ctx.chain, block);
    return trees.flatMap((top, index) =>
      parityTraces(top, intrinsicGasOfTx(block, index), { blockHash: block.hash, blockNumber: block.number, txHash: block.txHashes[index]!, txIndex: index }),
    );
  },
});
