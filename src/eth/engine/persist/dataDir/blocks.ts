/**
 * The mined blocks of a chain restored from a data directory: a start reads only the block index (hash, total
 * difficulty and transaction hashes of each block); a block's body is read from the store on first use, its hash checked
 * against the index, and decoded no further than asked (chainImage.ts's lazy block).
 */
import type { BlockOptions } from '@ethereumjs/block';
import { equalsBytes } from '@ethereumjs/util';
import { blockHeader, lazyMinedBlock } from '../../image/chainImage.js';
import type { MinedBlock } from '../../chain/types.js';
import { bodyKey, decodeBody, decodeIndex, INDEX_RANGE, plain } from './codec.js';
import { DataDirError, type NetworkDb } from '../../../../persist/store.js';
import { bytesHex } from '../../../../hex.js';

/** A block whose body is read from `db` on first use. */
export function storedBlock(
  db: NetworkDb,
  number: bigint,
  hash: Uint8Array,
  totalDifficulty: bigint,
  txHashes: readonly Uint8Array[],
  opts: BlockOptions,
  keccak: (b: Uint8Array) => Uint8Array,
): MinedBlock {
  let inner: MinedBlock | undefined;
  const load = (): MinedBlock => {
    if (inner !== undefined) return inner;
    const bytes = db.get(bodyKey(number));
    if (bytes === undefined) throw new DataDirError(`the data directory has no body of block ${number}`);
    const body = decodeBody(plain(bytes), number);
    const facts = blockHeader(body.raw, keccak);
    if (facts.number !== number || !equalsBytes(facts.hash, hash))
      throw new DataDirError(`block ${number} in the data directory is not the indexed block ${bytesHex(hash)}`);
    return (inner = lazyMinedBlock(body.raw, opts, facts, totalDifficulty, body.senders, body.txHashes, body.receipts, keccak));
  };
  return {
    hash,
    number,
    totalDifficulty,
    txHashes,
    get senders() {
      return load().senders;
    },
    get block() {
      return load().block;
    },
    get header() {
      return load().header;
    },
    get receipts() {
      return load().receipts;
    },
    get raw() {
      return load().raw;
    },
    transactionAt: (index) => load().transactionAt!(index),
    receiptAt: (index) => load().receiptAt!(index),
  };
}

/**
 * The indexed blocks `first`..head, in order (`first`: 0, or a fork's fork block); throws DataDirError unless they are
 * exactly blocks `first` to `head`.
 */
export function storedBlocks(db: NetworkDb, head: bigint, opts: BlockOptions, keccak: (b: Uint8Array) => Uint8Array, first = 0n): MinedBlock[] {
  const blocks: MinedBlock[] = [];
  for (const { key, value } of db.getRange(INDEX_RANGE)) {
    const n = (key as Buffer).readBigUInt64BE(1);
    const expected = first + BigInt(blocks.length);
    if (n !== expected) throw new DataDirError(`the data directory's block index skips from ${expected - 1n} to ${n}`);
    const { hash, totalDifficulty, txHashes } = decodeIndex(plain(value));
    blocks.push(storedBlock(db, n, hash, totalDifficulty, txHashes, opts, keccak));
  }
  if (first + BigInt(blocks.length) !== head + 1n)
    throw new DataDirError(`the data directory indexes ${blocks.length} blocks from ${first}, its head record says ${head}`);
  return blocks;
}
