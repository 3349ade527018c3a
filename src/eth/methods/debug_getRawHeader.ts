import { ResourceNotFound } from '../../errors.js';
import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { headerBytes } from '../engine/chain/rawBytes.js';
import { gethBlockNumberOrHash, rawRequestBlock } from '../gethParams.js';

/**
 * debug_getRawHeader: the RLP of a block's header, the block given by number, tag or hash (as geth). A number
 * beyond head answers null; an unknown hash (and `pending`, whose block is not in the chain) answers geth's
 * -32000 `header #0x... not found`.
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_getRawHeader","params":["0x3"]}
 */
export const debug_getRawHeader = defineMethod({
  name: 'debug_getRawHeader',
  params: [required('block', gethBlockNumberOrHash)],
  handler: async (ctx: EthContext, sel) => {
    const found = await rawRequestBlock(ctx.chain, sel);
    if (found === undefined) return null;
    if ('unknownHash' in found) throw new ResourceNotFound(`header #${bytesHex(found.unknownHash)} not found`);
    return bytesHex(headerBytes(found.block));
  },
});
