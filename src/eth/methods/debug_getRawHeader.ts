import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { headerBytes } from '../engine/chain/rawBytes.js';
import { gethBlockNumberOrHash, rawRequestBlock } from '../gethParams.js';

/**
 * debug_getRawHeader: the RLP of a block's header, the block given by number, tag or hash (as geth); null when
 * there is no such block, and for `pending` (not in the chain). geth answers `"0x"` for a number beyond head and
 * -32000 `header #... not found` for an unknown hash; devgate answers null, as SPEC 7 says of lookups (docs/methods.md "geth's small methods").
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_getRawHeader","params":["0x3"]}
 */
export const debug_getRawHeader = defineMethod({
  name: 'debug_getRawHeader',
  params: [required('block', gethBlockNumberOrHash)],
  handler: async (ctx: EthContext, sel) => {
    const block = await rawRequestBlock(ctx.chain, sel);
    return block === undefined ? null : bytesHex(headerBytes(block));
  },
});
