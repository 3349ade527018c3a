import { InvalidArgument, ResourceNotFound } from '../../errors.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { BLOCK_TAGS, describe, uint64, type BlockRef, type BlockTag, type Decoder } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { traceBlock } from '../engine/trace/run.js';
import { blockTracesText } from '../format/traceText.js';
import { DEFAULT_TRACE, traceConfig } from './debug_traceConfig.js';
import { revealsAny } from './reveals.js';

/** A block number or tag, as geth's rpc.BlockNumber reads it ("3" is a hex string without 0x prefix). */
const blockNumber: Decoder<BlockRef> = (value) => {
  if (typeof value === 'string' && (BLOCK_TAGS as readonly string[]).includes(value)) return { tag: value as BlockTag };
  if (typeof value !== 'string') throw new InvalidArgument(`expected a block number or tag, got ${describe(value)}`);
  return { number: uint64(value) };
};

/**
 * debug_traceBlockByNumber: every transaction of a block traced in order (see debug_traceTransaction for the
 * config), as `[{ txHash, result }]`. Genesis: -32000 "genesis is not traceable"; beyond head: "block #N not found".
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"callTracer"}]}
 */
export const debug_traceBlockByNumber = defineMethod({
  name: 'debug_traceBlockByNumber',
  facts: { heavy: true, reveals: revealsAny },
  params: [required('blockNumber', blockNumber), optional('config', traceConfig)],
  handler: async (ctx: EthContext, ref, config) => {
    const block = await ctx.node.resolveBlock('tag' in ref ? ref.tag : ref.number);
    if (block === undefined) throw new ResourceNotFound(`block #${'number' in ref ? ref.number : ref.tag} not found`);
    return blockTracesText(await traceBlock(ctx.chain, block, config ?? DEFAULT_TRACE));
  },
});
