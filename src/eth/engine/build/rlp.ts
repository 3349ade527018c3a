/**
 * The chain file `geth export` writes and `geth import` reads: RLP-encoded blocks one after another
 * (gzip-compressed when the file name ends in .gz; geth's reader detects that by name, this one by
 * the gzip magic bytes). geth exports from block 0, so a file usually starts with the genesis.
 */
import { gunzipSync } from 'node:zlib';
import { createBlockFromRLP, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt, concatBytes } from '@ethereumjs/util';

/** A chain file that cannot be read: names the byte offset or block where it broke. */
export class ChainFileError extends Error {
  override name = 'ChainFileError';
}

/** Decompresses a gzip file, and leaves anything else as it is. */
export function gunzipIfNeeded(bytes: Uint8Array): Uint8Array {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? new Uint8Array(gunzipSync(bytes)) : bytes;
}

/** Total length (prefix included) of the RLP item starting at `offset`. */
function itemLength(bytes: Uint8Array, offset: number): number {
  const b = bytes[offset]!;
  if (b < 0x80) return 1;
  if (b < 0xb8) return 1 + b - 0x80;
  if (b < 0xc0) return 1 + (b - 0xb7) + readLength(bytes, offset + 1, b - 0xb7);
  if (b < 0xf8) return 1 + b - 0xc0;
  return 1 + (b - 0xf7) + readLength(bytes, offset + 1, b - 0xf7);
}

function readLength(bytes: Uint8Array, start: number, size: number): number {
  if (start + size > bytes.length) throw new ChainFileError(`truncated RLP length at byte ${start}`);
  let n = 0;
  for (let i = 0; i < size; i++) n = n * 256 + bytes[start + i]!;
  return n;
}

/** Splits a chain file into the raw RLP of each block, without decoding them. */
export function splitBlocks(file: Uint8Array): Uint8Array[] {
  const bytes = gunzipIfNeeded(file);
  const items: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (bytes[offset]! < 0xc0) throw new ChainFileError(`byte ${offset}: expected an RLP list (a block), found 0x${bytes[offset]!.toString(16)}`);
    const length = itemLength(bytes, offset);
    if (offset + length > bytes.length) {
      throw new ChainFileError(`byte ${offset}: block ${items.length} of the file is truncated (needs ${length} bytes, ${bytes.length - offset} left)`);
    }
    items.push(bytes.subarray(offset, offset + length));
    offset += length;
  }
  return items;
}

/** Number and difficulty of a raw block, read from its header without building a Block. */
export function peekHeader(raw: Uint8Array): { number: bigint; difficulty: bigint } {
  const decoded = RLP.decode(raw) as unknown;
  const header = Array.isArray(decoded) ? (decoded[0] as unknown) : undefined;
  if (!Array.isArray(header) || header.length < 15) throw new ChainFileError('not a block: its first element is not a header');
  return { difficulty: bytesToBigInt(header[7] as Uint8Array), number: bytesToBigInt(header[8] as Uint8Array) };
}

/**
 * Decodes one raw block with the hardfork its number and timestamp select on `common` (the Common
 * is copied, not changed). Blob transactions need `common.customCrypto.kzg`.
 */
export function decodeBlock(raw: Uint8Array, common: Common): Block {
  return createBlockFromRLP(raw, { common, setHardfork: true });
}

/** Encodes blocks as `geth export` does: each block's RLP, back to back. */
export function encodeChain(blocks: Iterable<Block>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const block of blocks) parts.push(block.serialize());
  return concatBytes(...parts);
}
