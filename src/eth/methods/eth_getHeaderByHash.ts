import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { formatHeader } from '../format/header.js';
import { headerOf } from '../format/mined.js';
import { gethHash } from '../gethParams.js';

/**
 * eth_getHeaderByHash: a block's header by hash, as geth's RPCMarshalHeader (the block object's header fields, no
 * totalDifficulty, size or transactions); null when unknown.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getHeaderByHash","params":["0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b"]}
 */
export const eth_getHeaderByHash = defineMethod({
  name: 'eth_getHeaderByHash',
  params: [required('blockHash', gethHash)],
  handler: (ctx: EthContext, hash) => {
    const block = ctx.chain.blockByHash(hash);
    return block === undefined ? null : formatHeader(headerOf(block), block.hash);
  },
});
