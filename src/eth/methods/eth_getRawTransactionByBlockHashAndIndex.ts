import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { uint64 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { txBytesAt } from '../engine/chain/rawBytes.js';
import { gethHash } from '../gethParams.js';

/**
 * eth_getRawTransactionByBlockHashAndIndex: the bytes of the transaction at an index of a block given by hash (a
 * legacy one's RLP, a typed one's type byte and RLP); null when the block is unknown or the index out of range
 * (SPEC 7; geth answers `"0x"`).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getRawTransactionByBlockHashAndIndex","params":["0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b","0x0"]}
 */
export const eth_getRawTransactionByBlockHashAndIndex = defineMethod({
  name: 'eth_getRawTransactionByBlockHashAndIndex',
  params: [required('blockHash', gethHash), required('index', uint64)],
  handler: (ctx: EthContext, hash, index) => {
    const block = ctx.chain.blockByHash(hash);
    const bytes = block === undefined || index >= BigInt(block.txHashes.length) ? undefined : txBytesAt(block, Number(index));
    return bytes === undefined ? null : bytesHex(bytes);
  },
});
