import { ResourceNotFound } from '../../errors.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { traceTransaction } from '../engine/trace/run.js';
import { traceText } from '../format/traceText.js';
import { DEFAULT_TRACE, traceConfig } from './debug_traceConfig.js';
import { revealsAny } from './reveals.js';

/**
 * debug_traceTransaction: runs a mined transaction again (on its parent's state, after the transactions before it in
 * its block) under a tracer, as geth does: the struct logger by default, or `tracer` callTracer, prestateTracer,
 * 4byteTracer, noopTracer, with `tracerConfig` and `timeout` (see debug_traceConfig.ts). Never changes the chain.
 * Unknown or pending transaction: -32000 "transaction not found".
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_traceTransaction","params":["0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b",{"tracer":"callTracer","tracerConfig":{"withLog":true}}]}
 */
export const debug_traceTransaction = defineMethod({
  name: 'debug_traceTransaction',
  facts: { heavy: true, reveals: revealsAny },
  params: [required('transactionHash', hash32), optional('config', traceConfig)],
  handler: async (ctx: EthContext, hash, config) => {
    const found = ctx.chain.transaction(hash);
    if (found === undefined || found.kind !== 'mined') throw new ResourceNotFound('transaction not found');
    return traceText(await traceTransaction(ctx.chain, found.block, found.index, config ?? DEFAULT_TRACE));
  },
});
