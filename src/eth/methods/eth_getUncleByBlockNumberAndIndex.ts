import { defineMethod, required } from '../../rpc/method.js';
import { uint64 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { uncleHeaders } from '../engine/chain/rawBytes.js';
import { formatUncle } from '../format/header.js';
import { gethBlockNumber } from '../gethParams.js';

/**
 * eth_getUncleByBlockNumberAndIndex: the uncle at an index of a block given by number or tag, as geth answers it
 * (the uncle's header fields, `size` of a block of that header alone, `uncles: []`; no transactions and no
 * totalDifficulty); null when there is no such block or the index is out of range. Only blocks of an imported
 * pre-merge chain have uncles; blocks devgate mines have none.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getUncleByBlockNumberAndIndex","params":["0x5","0x0"]}
 */
export const eth_getUncleByBlockNumberAndIndex = defineMethod({
  name: 'eth_getUncleByBlockNumberAndIndex',
  params: [required('block', gethBlockNumber), required('index', uint64)],
  handler: async (ctx: EthContext, ref, index) => {
    const block = await ctx.node.resolveBlock('tag' in ref ? ref.tag : ref.number);
    if (block === undefined) return null;
    const uncle = uncleHeaders(block)[Number(index)];
    return uncle === undefined ? null : formatUncle(uncle);
  },
});
