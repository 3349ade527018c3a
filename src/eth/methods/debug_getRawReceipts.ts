import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { blockReceiptBytes } from '../engine/chain/rawBytes.js';
import { gethBlockNumberOrHash, rawRequestBlock } from '../gethParams.js';

/**
 * debug_getRawReceipts: each receipt of a block in its consensus encoding (geth's Receipt.MarshalBinary: a typed
 * transaction's type byte, then RLP [status or root, cumulative gas, bloom, logs]), the block given by number,
 * tag or hash (as geth); `[]` for a block without transactions; null when there is no such block, and for
 * `pending` (not in the chain), where geth answers `[]` for an unknown hash (docs/methods.md "geth's small methods").
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_getRawReceipts","params":["0x3"]}
 */
export const debug_getRawReceipts = defineMethod({
  name: 'debug_getRawReceipts',
  params: [required('block', gethBlockNumberOrHash)],
  handler: async (ctx: EthContext, sel) => {
    const block = await rawRequestBlock(ctx.chain, sel);
    return block === undefined ? null : blockReceiptBytes(block).map(bytesHex);
  },
});
