import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { addressParam, stateBlock, storageSlot } from '../params.js';
import { plainHex } from '../../hex.js';

/**
 * eth_getStorageAt: the 32-byte value at a storage position of an address at a block. The position
 * is a quantity (`0x0` for slot 0) or a 32-byte hex string (a mapping entry: keccak256 of the key and
 * the mapping's slot, each left-padded to 32 bytes).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getStorageAt","params":["0x295a70b2de5e3953354a6a8344e616ed314d7251","0x0","latest"]}
 */
export const eth_getStorageAt = defineMethod({
  name: 'eth_getStorageAt',
  params: [required('address', addressParam), required('position', storageSlot), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, position, sel) => {
    const block = await stateBlock(ctx.chain, sel);
    return wordHex(await ctx.chain.getStorage(address, position.slot, block));
  },
});

const ZEROS = '0'.repeat(64);

/** A stored value (minimal bytes, at most 32) as a 32-byte word's hex: zeros on the left. */
export function wordHex(value: Uint8Array): string {
  // Longer than a word is not a storage value: an internal error, as @ethereumjs's setLengthLeft throws.
  if (value.byteLength > 32) throw new Error(`a storage value of ${value.byteLength} bytes`);
  const hex = plainHex(value);
  return '0x' + ZEROS.slice(hex.length) + hex;
}
