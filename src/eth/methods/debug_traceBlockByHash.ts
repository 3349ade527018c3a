import { ResourceNotFound } from '../../errors.js';
import { bytesHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { traceBlock } from '../engine/trace/run.js';
import { blockTracesText } from '../format/traceText.js';
import { DEFAULT_TRACE, traceConfig } from './debug_traceConfig.js';
import { revealsAny } from './reveals.js';

/**
 * debug_traceBlockByHash: every transaction of a block traced in order (see debug_traceTransaction for the config),
 * as `[{ txHash, result }]`. Unknown hash: -32000 "block 0x... not found"; genesis: "genesis is not traceable".
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByHash","params":["0x80e911b62f552f563a2544dfef5eb39ec8863d9082c998ca6b657f76e19de38e",{"tracer":"4byteTracer"}]}
 */
export const debug_traceBlockByHash = defineMethod({
  name: 'debug_traceBlockByHash',
  facts: { heavy: true, reveals: revealsAny },
  params: [required('blockHash', hash32), optional('config', traceConfig)],
  handler: async (ctx: EthContext, hash, config) => {
    const block = ctx.chain.blockByHash(hash);
    if (block === undefined) throw new ResourceNotFound(`block ${bytesHex(hash)} not found`);
    return blockTracesText(await traceBlock(ctx.chain, block, config ?? DEFAULT_TRACE));
  },
});
