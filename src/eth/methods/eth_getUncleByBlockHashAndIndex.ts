import { defineMethod, required } from '../../rpc/method.js';
import { uint64 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { uncleHeaders } from '../engine/chain/rawBytes.js';
import { formatUncle } from '../format/header.js';
import { gethHash } from '../gethParams.js';

/**
 * eth_getUncleByBlockHashAndIndex: the uncle at an index of a block given by hash, as geth answers it (the uncle's
 * header fields, `size` of a block of that header alone, `uncles: []`; no transactions and no totalDifficulty);
 * null when the block is unknown or the index is out of range.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getUncleByBlockHashAndIndex","params":["0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b","0x0"]}
 */
export const eth_getUncleByBlockHashAndIndex = defineMethod({
  name: 'eth_getUncleByBlockHashAndIndex',
  params: [required('blockHash', gethHash), required('index', uint64)],
  handler: (ctx: EthContext, hash, index) => {
    const block = ctx.chain.blockByHash(hash);
    if (block === undefined) return null;
    const uncle = uncleHeaders(block)[Number(index)];
    return uncle === undefined ? null : formatUncle(uncle);
  },
});
