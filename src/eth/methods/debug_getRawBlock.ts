import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { blockBytes } from '../engine/chain/rawBytes.js';
import { gethBlockNumberOrHash, rawRequestBlock } from '../gethParams.js';

/**
 * debug_getRawBlock: the RLP of a block ([header, transactions, uncles, withdrawals?], as `geth export` writes
 * it), the block given by number, tag or hash (as geth); null when there is no such block, and for `pending` (not
 * in the chain). geth answers `"0x"` for a number beyond head and -32000 `block #... not found` for an unknown
 * hash; devgate answers null, as SPEC 7 says of lookups (docs/methods.md "geth's small methods").
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_getRawBlock","params":["0x3"]}
 */
export const debug_getRawBlock = defineMethod({
  name: 'debug_getRawBlock',
  params: [required('block', gethBlockNumberOrHash)],
  handler: async (ctx: EthContext, sel) => {
    const block = await rawRequestBlock(ctx.chain, sel);
    return block === undefined ? null : bytesHex(blockBytes(block));
  },
});
