/**
 * The consensus bytes of what the chain keeps, as geth's debug_getRaw* methods give them: a block's RLP, its
 * header's, a transaction's (a typed one with its type byte), a receipt's (geth's Receipt.MarshalBinary: the
 * consensus fields only, [status or root, cumulative gas, bloom, logs]), and the uncles' headers. A restored
 * block's bytes are the ones it was saved as (rawBlock.ts); a built block's are its Block's serialization, made
 * once.
 */
import { RLP } from '@ethereumjs/rlp';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { listSpans, rlpItem, rlpViews, type Nested } from '../codec/rlpReader.js';
import { headerFields } from './rawBlock.js';
import type { HeaderFields, MinedBlock, StoredReceipt } from './types.js';

/** Serializations of built blocks already asked for (a block never changes once built). */
const built = new WeakMap<MinedBlock, Uint8Array>();

/** The block's RLP: [header, transactions, uncles, withdrawals?] (geth's rlp.EncodeToBytes(block)). */
export function blockBytes(mined: MinedBlock): Uint8Array {
  if (mined.raw !== undefined) return mined.raw.bytes;
  let bytes = built.get(mined);
  if (bytes === undefined) built.set(mined, (bytes = mined.block.serialize()));
  return bytes;
}

/** Where each of the block's parts lies in its bytes (whole items, prefix included). */
const partsOf = (bytes: Uint8Array) => listSpans(bytes, 0, 'a block');

/** The header's RLP (geth's rlp.EncodeToBytes(header)). */
export function headerBytes(mined: MinedBlock): Uint8Array {
  const bytes = blockBytes(mined);
  const [start, end] = partsOf(bytes)[0]!;
  return bytes.subarray(start, end);
}

/** The bytes of each transaction as a block carries it: a legacy one's RLP list, a typed one's type byte and RLP. */
export function blockTxBytes(mined: MinedBlock): Uint8Array[] {
  const bytes = blockBytes(mined);
  return listSpans(bytes, partsOf(bytes)[1]![0], 'a transaction list').map(([start, end]) => {
    if (bytes[start]! >= 0xc0) return bytes.subarray(start, end);
    const item = rlpItem(bytes, start, 'a typed transaction');
    return bytes.subarray(item.start, item.end);
  });
}

/** The transaction at `index` of the block, as blockTxBytes gives it; undefined when there is none. */
export function txBytesAt(mined: MinedBlock, index: number): Uint8Array | undefined {
  return blockTxBytes(mined)[index];
}

/**
 * A pooled transaction's bytes as geth's pool gives them (tx.MarshalBinary): a blob transaction that still has
 * its blobs in their network form (with blobs, commitments and proofs), any other in its canonical form.
 */
export function pooledTxBytes(tx: TypedTransaction): Uint8Array {
  const blobs = (tx as { blobs?: readonly unknown[] }).blobs;
  if (tx.type === 3 && blobs !== undefined && blobs.length > 0) return (tx as unknown as { serializeNetworkWrapper(): Uint8Array }).serializeNetworkWrapper();
  return tx.serialize();
}

/** A receipt's consensus encoding: RLP [status (0x01, or empty for 0) or root, cumulative gas, bloom, [[address, topics, data]]], after its type byte for a typed transaction. */
export function receiptBytes(receipt: StoredReceipt, txType: number): Uint8Array {
  const outcome = receipt.root ?? (receipt.status === 1 ? Uint8Array.of(1) : new Uint8Array());
  const logs = receipt.logs.map((l) => [l.address.bytes, [...l.topics], l.data]);
  const rlp = RLP.encode([outcome, bigIntToUnpaddedBytes(receipt.cumulativeGasUsed), receipt.logsBloom, logs]);
  if (txType === 0) return rlp;
  const out = new Uint8Array(rlp.length + 1);
  out[0] = txType;
  out.set(rlp, 1);
  return out;
}

/** Every receipt of the block in its consensus encoding (geth's debug_getRawReceipts), in order. */
export function blockReceiptBytes(mined: MinedBlock): Uint8Array[] {
  return blockTxBytes(mined).map((tx, i) => receiptBytes(mined.receiptAt?.(i) ?? mined.receipts[i]!, tx[0]! >= 0xc0 ? 0 : tx[0]!));
}

/** An uncle: its header's fields, hash and RLP, and the size geth gives a block of that header alone. */
export interface UncleHeader {
  readonly header: HeaderFields;
  readonly hash: Uint8Array;
  readonly bytes: Uint8Array;
  /** Length of RLP [header, [], []] (geth's types.NewBlockWithHeader(uncle).Size()). */
  readonly size: number;
}

/** The block's uncles' headers, in order (none after the merge, and none in a block devgate mined). */
export function uncleHeaders(mined: MinedBlock): UncleHeader[] {
  const bytes = blockBytes(mined);
  return listSpans(bytes, partsOf(bytes)[2]![0], 'an uncle list').map(([start, end]) => {
    const header = bytes.subarray(start, end);
    const payload = header.length + 2;
    return {
      header: headerFields(rlpViews(header, 0, 'an uncle header').value as Nested[]),
      hash: keccak_256(header),
      bytes: header,
      size: payload + (payload < 56 ? 1 : 1 + byteLength(payload)),
    };
  });
}

/** How many bytes a length takes big-endian (an RLP long-list prefix). */
function byteLength(n: number): number {
  let k = 0;
  for (; n > 0; n = Math.floor(n / 256)) k++;
  return k;
}
