import { setLengthLeft } from '@ethereumjs/util';
import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { addressParam, stateBlock, storageSlot } from '../params.js';

/**
 * eth_getStorageAt: the 32-byte value at a storage position of an address at a block. The position
 * is a quantity (`0x0` for slot 0) or a 32-byte hex string (a mapping entry: keccak256 of the key and
 * the mapping's slot, each left-padded to 32 bytes).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getStorageAt","params":["0x295a70b2de5e3953354a6a8344e616ed314d7251","0x0","latest"]}
 */
export const eth_getStorageAt = defineMethod({
  name: 'eth_getStorageAt',
  params: [required('address', addressParam), required('position', storageSlot), required('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, position, sel) => {
    const block = await stateBlock(ctx.chain, sel);
    return bytesHex(setLengthLeft(await ctx.chain.getStorage(address, position.slot, block), 32));
  },
});
