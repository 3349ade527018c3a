/**
 * The chain file `geth export` writes and `geth import` reads: RLP-encoded blocks one after another
 * (gzip-compressed when the file name ends in .gz; geth's reader detects that by name, this one by
 * the gzip magic bytes). geth exports from block 0, so a file usually starts with the genesis.
 */
import { createBlockFromRLP, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RlpCursor, RlpError, rlpViews, type Nested } from '../codec/rlpReader.js';
import { bytesToBigInt, concatBytes } from '@ethereumjs/util';
import { gunzipCappedSync, isGzip, UnzipTooLarge } from '../../../persist/unzip.js';

/** A chain file that cannot be read: names the byte offset or block where it broke. */
export class ChainFileError extends Error {
  override name = 'ChainFileError';
}

/** A chain file unzips to at most this many bytes (it is the operator's own file, read at start: a far larger cap than uploads'). */
export const MAX_CHAIN_FILE_BYTES = 2 * 1024 ** 3;

/** Decompresses a gzip file (within MAX_CHAIN_FILE_BYTES), and leaves anything else as it is. */
export function gunzipIfNeeded(bytes: Uint8Array): Uint8Array {
  if (!isGzip(bytes)) return bytes;
  try {
    return new Uint8Array(gunzipCappedSync(bytes, MAX_CHAIN_FILE_BYTES));
  } catch (err) {
    throw new ChainFileError(
      err instanceof UnzipTooLarge ? `the chain file ${err.message}` : `the chain file is gzip'd but does not unzip: ${(err as Error).message}`,
    );
  }
}

/** Splits a chain file into the raw RLP of each block, without decoding them. */
export function splitBlocks(file: Uint8Array): Uint8Array[] {
  const bytes = gunzipIfNeeded(file);
  const items: Uint8Array[] = [];
  const cursor = new RlpCursor();
  let offset = 0;
  while (offset < bytes.length) {
    if (bytes[offset]! < 0xc0) throw new ChainFileError(`byte ${offset}: expected an RLP list (a block), found 0x${bytes[offset]!.toString(16)}`);
    let end: number;
    try {
      end = cursor.parse(bytes, offset, `block ${items.length} of the file`).end;
    } catch (err) {
      throw err instanceof RlpError ? new ChainFileError(`byte ${offset}: ${err.message}`) : err;
    }
    items.push(bytes.subarray(offset, end));
    offset = end;
  }
  return items;
}

/** Number and difficulty of a raw block, read from its header without building a Block. */
export function peekHeader(raw: Uint8Array): { number: bigint; difficulty: bigint } {
  let header: Nested | undefined;
  try {
    const block = rlpViews(raw, 0, 'a block').value;
    header = Array.isArray(block) ? block[0] : undefined;
  } catch (err) {
    throw err instanceof RlpError ? new ChainFileError(err.message) : err;
  }
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
