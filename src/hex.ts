/**
 * Hex in devgate: this module, and one rule. Devgate's own code turns bytes into hex and hex into bytes here: byte
 * data on the wire with bytesHex (`0x`, lowercase), quantities with quantityHex, map and store keys with plainHex
 * (unprefixed, read in place), and back with hexBytes (a copy) or plainHexView (no copy, for the hot paths that
 * read a store's hex values); never an inline `Buffer...toString('hex')` nor a private helper. These functions do
 * not validate: text a client sent is checked by the rpc layer's validators first. @ethereumjs/util's
 * bytesToHex/hexToBytes stay only where a value goes to or comes from @ethereumjs's own API and its checks are
 * wanted (hexToBytes throws on bad hex); elsewhere they are to move here.
 */

/** A quantity: `0x0`, `0x1a` (no leading zeros). */
export function quantityHex(n: bigint | number): string {
  return '0x' + n.toString(16);
}

/** Byte data: even-length lowercase hex, `0x` when empty. */
export function bytesHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Parses hex, 0x-prefixed or not, into new bytes (the caller has validated it). */
export function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'));
}

/** Bytes as unprefixed lowercase hex, read in place (no copy): keys of maps and files, digests. */
export function plainHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/**
 * Bytes of unprefixed hex, as a plain Uint8Array over the decoded Buffer (no copy: Uint8Array.from would copy it
 * byte by byte through an iterator). The caller must not write to it.
 */
export function plainHexView(hex: string): Uint8Array {
  const b = Buffer.from(hex, 'hex');
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}
