import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { blockReceiptsJson } from '../format/receipt.js';
import { findBlock, isPending, receiptsBlockParam } from '../params.js';

/**
 * eth_getBlockReceipts: every receipt of a block, each with its logs. The block is a hex or decimal
 * integer, a tag (`pending` answers as `latest`) or a block hash; null when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getBlockReceipts","params":["latest"]}
 */
export const eth_getBlockReceipts = defineMethod({
  name: 'eth_getBlockReceipts',
  params: [required('block', receiptsBlockParam)],
  handler: async (ctx: EthContext, sel) => {
    const block = await findBlock(ctx.node, isPending(sel) ? { tag: 'latest' } : sel);
    return block === undefined ? null : blockReceiptsJson(block);
  },
});
