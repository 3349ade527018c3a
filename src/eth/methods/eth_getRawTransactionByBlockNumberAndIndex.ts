import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { uint64 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { txBytesAt } from '../engine/chain/rawBytes.js';
import { gethBlockNumber } from '../gethParams.js';

/**
 * eth_getRawTransactionByBlockNumberAndIndex: the bytes of the transaction at an index of a block given by number
 * or tag (`pending`: the pending block's, as geth); null when there is no such block or the index is out of range
 * (SPEC 7; geth answers `"0x"`).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getRawTransactionByBlockNumberAndIndex","params":["latest","0x0"]}
 */
export const eth_getRawTransactionByBlockNumberAndIndex = defineMethod({
  name: 'eth_getRawTransactionByBlockNumberAndIndex',
  params: [required('block', gethBlockNumber), required('index', uint64)],
  handler: async (ctx: EthContext, ref, index) => {
    const block = await ctx.node.resolveBlock('tag' in ref ? ref.tag : ref.number);
    const bytes = block === undefined || index >= BigInt(block.txHashes.length) ? undefined : txBytesAt(block, Number(index));
    return bytes === undefined ? null : bytesHex(bytes);
  },
});
