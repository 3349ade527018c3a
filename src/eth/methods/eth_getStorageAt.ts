import { InvalidArgument } from '../../errors.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash, describe, type Decoder } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { addressParam, stateBlock } from '../params.js';
import { plainHex } from '../../hex.js';
import { addressAt } from './reveals.js';

/** The position's text; geth reads it in the method (storageKey), so its errors do not name the argument. */
const keyText: Decoder<string> = (value) => {
  if (typeof value !== 'string') throw new InvalidArgument(`expected a storage slot as a hex string, got ${describe(value)}`);
  return value;
};

/**
 * eth_getStorageAt: the 32-byte value at a storage position of an address at a block. The position
 * is a quantity (`0x0` for slot 0) or a 32-byte hex string (a mapping entry: keccak256 of the key and
 * the mapping's slot, each left-padded to 32 bytes). It is read as geth's decodeHash reads it, with geth's
 * errors (-32602 `invalid hex in storage key: "0xasdf"`, `storage key too long (want at most 32 bytes): "0x..."`).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getStorageAt","params":["0x295a70b2de5e3953354a6a8344e616ed314d7251","0x0","latest"]}
 */
export const eth_getStorageAt = defineMethod({
  name: 'eth_getStorageAt',
  facts: { reveals: addressAt(0) },
  params: [required('address', addressParam), required('position', keyText), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, position, sel) => {
    const slot = storageKey(position);
    const block = await stateBlock(ctx.node, sel);
    return wordHex(await ctx.chain.getStorage(address, slot, block));
  },
});

/** Keys quoted in errors are cut to this many characters (geth quotes them whole; a request may be megabytes). */
const QUOTE_MAX = 1_000;

/**
 * A storage key as geth's decodeHash reads it: an optional 0x, hex digits (odd counts take a leading zero), at most
 * 32 bytes, left-padded to a word; `0x` alone is slot 0. Errors are geth's, with the key quoted.
 */
export function storageKey(text: string): Uint8Array {
  let body = /^0[xX]/.test(text) ? text.slice(2) : text;
  if (body.length % 2 === 1) body = '0' + body;
  const quoted = () => JSON.stringify(text.length > QUOTE_MAX ? text.slice(0, QUOTE_MAX) + '...' : text);
  if (body.length > 64) throw new InvalidArgument(`storage key too long (want at most 32 bytes): ${quoted()}`);
  if (!/^[0-9a-fA-F]*$/.test(body)) throw new InvalidArgument(`invalid hex in storage key: ${quoted()}`);
  const slot = new Uint8Array(32);
  slot.set(Buffer.from(body, 'hex'), 32 - body.length / 2);
  return slot;
}

const ZEROS = '0'.repeat(64);

/** A stored value (minimal bytes, at most 32) as a 32-byte word's hex: zeros on the left. */
export function wordHex(value: Uint8Array): string {
  // Longer than a word is not a storage value: an internal error, as @ethereumjs's setLengthLeft throws.
  if (value.byteLength > 32) throw new Error(`a storage value of ${value.byteLength} bytes`);
  const hex = plainHex(value);
  return '0x' + ZEROS.slice(hex.length) + hex;
}
