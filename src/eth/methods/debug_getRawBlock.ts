import { ResourceNotFound } from '../../errors.js';
import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { blockBytes } from '../engine/chain/rawBytes.js';
import { gethBlockNumberOrHash, rawRequestBlock } from '../gethParams.js';

/**
 * debug_getRawBlock: the RLP of a block ([header, transactions, uncles, withdrawals?], as `geth export` writes
 * it), the block given by number, tag or hash (as geth). A number beyond head answers null; an unknown hash (and
 * `pending`, whose block is not in the chain) answers geth's -32000 `block #0x... not found`.
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_getRawBlock","params":["0x3"]}
 */
export const debug_getRawBlock = defineMethod({
  name: 'debug_getRawBlock',
  params: [required('block', gethBlockNumberOrHash)],
  handler: async (ctx: EthContext, sel) => {
    const found = await rawRequestBlock(ctx.chain, sel);
    if (found === undefined) return null;
    if ('unknownHash' in found) throw new ResourceNotFound(`block #${bytesHex(found.unknownHash)} not found`);
    return bytesHex(blockBytes(found.block));
  },
});
