import { RollupError } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';
import { felt } from '../../params.js';
import { blockTraces } from './starknet_traceBlockTransactions.js';
import { revealsAny } from './reveals.js';

/**
 * starknet_traceTransaction: the TRANSACTION_TRACE of one transaction (pending or sealed), from a replay
 * of its block up to it. Error 29 when the hash is unknown or its block was rejected.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_traceTransaction","params":{"transaction_hash":"0x3f1..."}}
 *   -> {"type":"INVOKE","validate_invocation":{...},"execute_invocation":{...},"fee_transfer_invocation":{...},...}
 */
export const starknet_traceTransaction = defineMethod({
  name: 'starknet_traceTransaction',
  facts: { reveals: revealsAny },
  named: true,
  params: [required('transaction_hash', felt)],
  handler: (ctx: RollupContext, hash) => {
    const found = ctx.chain.transaction(hash);
    if (found === undefined || found.block?.status === 'REJECTED') throw new RollupError(29, 'Transaction hash not found');
    const traces = blockTraces(ctx, found.block ?? ctx.chain.pending());
    return traces.find((t) => t.transaction_hash === feltHex(hash))!.trace_root;
  },
});
