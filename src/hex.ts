/** Wire encodings shared by the formatters: quantities and byte data as 0x-prefixed hex. */

/** A quantity: `0x0`, `0x1a` (no leading zeros). */
export function quantityHex(n: bigint | number): string {
  return '0x' + n.toString(16);
}

/** Byte data: even-length lowercase hex, `0x` when empty. */
export function bytesHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Parses 0x-prefixed hex into bytes (the caller has validated it). */
export function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'));
}

/** Bytes as unprefixed lowercase hex, read in place (no copy): keys of maps and files, digests. */
export function plainHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
