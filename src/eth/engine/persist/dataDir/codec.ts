/**
 * The records of an eth network in a data directory (keys and values are bytes):
 *
 * - `M`: meta, JSON: format, chain id, genesis hash, the seed's chain key, the seed's head number, dev accounts.
 * - `H`: head, RLP: [head number, head hash, head's edited state root or empty, pool, controls (JSON)].
 * - `S`: the seed's head record, same form (what anvil_reset goes back to after a restart).
 * - `h` + u64 number: block index: hash, total difficulty, tx hashes (encodeIndex): read at start.
 * - `b` + u64 number: block body: u32 length, block RLP, u32 tx count, senders (20 bytes each), tx hashes
 *   (32 each), receipts RLP (chainImage.ts's receipt form): read on first use.
 * - `n` + node key bytes: a trie node (state, storage, code), as the in-memory node store keys it in hex.
 *
 * A block, its nodes and the head record are written in one LMDB transaction: a restart sees all of it or none.
 */
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP } from '@ethereumjs/tx';
import type { Common } from '@ethereumjs/common';
import { Address, bigIntToUnpaddedBytes, bytesToBigInt, concatBytes } from '@ethereumjs/util';
import { encodeReceipt } from '../../image/chainImage.js';
import type { MinedBlock, PendingTx } from '../../chain/types.js';
import { DataDirError } from '../../../../persist/store.js';
import { plainHex, plainHexView } from '../../../../hex.js';

export const META = Uint8Array.of(0x4d);
export const HEAD = Uint8Array.of(0x48);
export const SEED_HEAD = Uint8Array.of(0x53);
const INDEX = 0x68;
const BODY = 0x62;
const NODE = 0x6e;

const numbered = (prefix: number, n: bigint) => {
  const k = new Uint8Array(9);
  k[0] = prefix;
  new DataView(k.buffer).setBigUint64(1, n);
  return k;
};
export const indexKey = (n: bigint) => numbered(INDEX, n);
export const bodyKey = (n: bigint) => numbered(BODY, n);
/** The first and past-the-last keys of the block index. */
export const INDEX_RANGE = { start: indexKey(0n), end: Uint8Array.of(INDEX + 1) };

/** A node's key: `n` and the bytes of its unprefixed lowercase hex key. */
export function nodeKey(hex: string): Uint8Array {
  const bytes = plainHexView(hex);
  if (bytes.length * 2 !== hex.length) throw new DataDirError(`trie node key ${hex} is not hex`);
  const k = new Uint8Array(bytes.length + 1);
  k[0] = NODE;
  k.set(bytes, 1);
  return k;
}
export const NODE_RANGE = { start: Uint8Array.of(NODE), end: Uint8Array.of(NODE + 1) };
/** The hex key of a node record's key. */
export const nodeHex = (key: Uint8Array) => plainHex(key.subarray(1));

/** A plain Uint8Array over a Buffer's bytes (Buffer's slice() shares memory; a Uint8Array's copies). */
export const plain = (b: Uint8Array): Uint8Array => (Buffer.isBuffer(b) ? new Uint8Array(b.buffer, b.byteOffset, b.length) : b);

export interface Meta {
  readonly format: number;
  readonly chainId: string;
  readonly genesisHash: string;
  /** The seed's chain key (cache/chainCache.ts): equal means the same seed, and the genesis needs no check. */
  readonly chainKey: string;
  readonly seedHead: string;
  readonly accounts: readonly { readonly address: string; readonly privateKey: string }[];
}

export const encodeMeta = (meta: Meta) => new TextEncoder().encode(JSON.stringify(meta));
export function decodeMeta(bytes: Uint8Array, where: string): Meta {
  try {
    const meta = JSON.parse(Buffer.from(bytes).toString('utf8')) as Meta;
    if (typeof meta.genesisHash !== 'string' || typeof meta.chainKey !== 'string' || typeof meta.chainId !== 'string' || !Array.isArray(meta.accounts))
      throw new Error('fields missing');
    return meta;
  } catch (err) {
    throw new DataDirError(`${where}: unreadable meta record (${(err as Error).message})`);
  }
}

/**
 * The block index record: 32-byte hash, u8 length and minimal bytes of the total difficulty, transaction hashes
 * (32 bytes each): read for every block at start, so plain bytes, no RLP (10,000 records: ~100 -> ~15 ms).
 */
export function encodeIndex(m: MinedBlock): Uint8Array {
  const td = bigIntToUnpaddedBytes(m.totalDifficulty);
  return concatBytes(m.hash, Uint8Array.of(td.length), td, ...m.txHashes);
}
export function decodeIndex(bytes: Uint8Array): { hash: Uint8Array; totalDifficulty: bigint; txHashes: Uint8Array[] } {
  const tdLength = bytes[32];
  const at = 33 + (tdLength ?? 0);
  if (tdLength === undefined || at > bytes.length || (bytes.length - at) % 32 !== 0) throw new DataDirError('a block index record is malformed');
  const txHashes: Uint8Array[] = [];
  for (let i = at; i < bytes.length; i += 32) txHashes.push(bytes.subarray(i, i + 32));
  return { hash: bytes.subarray(0, 32), totalDifficulty: tdLength === 0 ? 0n : bytesToBigInt(bytes.subarray(33, at)), txHashes };
}

/** The body record of a mined block (see the file comment). */
export function encodeBody(m: MinedBlock): Uint8Array {
  const raw = m.block.serialize();
  const receipts = RLP.encode(m.receipts.map(encodeReceipt));
  const n = m.senders.length;
  const out = new Uint8Array(4 + raw.length + 4 + 52 * n + receipts.length);
  const view = new DataView(out.buffer);
  let at = 0;
  view.setUint32(at, raw.length, true);
  out.set(raw, (at += 4));
  view.setUint32((at += raw.length), n, true);
  at += 4;
  for (const s of m.senders) {
    out.set(s.bytes, at);
    at += 20;
  }
  for (const h of m.txHashes) {
    out.set(h, at);
    at += 32;
  }
  out.set(receipts, at);
  return out;
}

export interface Body {
  readonly raw: Uint8Array;
  readonly senders: Uint8Array;
  readonly txHashes: readonly Uint8Array[];
  readonly receipts: Uint8Array;
}

export function decodeBody(bytes: Uint8Array, number: bigint): Body {
  const fail = (): never => {
    throw new DataDirError(`the body record of block ${number} is malformed`);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (bytes.length < 8) fail();
  const rawLength = view.getUint32(0, true);
  if (8 + rawLength > bytes.length) fail();
  const raw = bytes.subarray(4, 4 + rawLength);
  const n = view.getUint32(4 + rawLength, true);
  let at = 8 + rawLength;
  if (at + 52 * n > bytes.length) fail();
  const senders = bytes.subarray(at, (at += 20 * n));
  const txHashes = Array.from({ length: n }, (_, i) => bytes.subarray(at + 32 * i, at + 32 * i + 32));
  return { raw, senders, txHashes, receipts: bytes.subarray(at + 32 * n) };
}

/** What the head record holds besides the blocks. */
export interface HeadRecord {
  readonly head: bigint;
  readonly headHash: Uint8Array;
  readonly editedRoot: Uint8Array | undefined;
  readonly pool: readonly PendingTx[];
  /** Miner and impersonation state, as JSON (bigints as {"$": "0x.."}). */
  readonly controls: string;
}

/** Each pooled transaction's bytes, made once (the head record is encoded after every write job, with the whole pool). */
const serialized = new WeakMap<object, Uint8Array>();
const txBytes = (tx: PendingTx['tx']) => {
  let bytes = serialized.get(tx);
  if (bytes === undefined) serialized.set(tx, (bytes = tx.serialize()));
  return bytes;
};

export function encodeHead(h: HeadRecord): Uint8Array {
  return RLP.encode([
    bigIntToUnpaddedBytes(h.head),
    h.headHash,
    h.editedRoot ?? new Uint8Array(),
    h.pool.map((p) => [txBytes(p.tx), p.sender.bytes]),
    new TextEncoder().encode(h.controls),
  ]);
}

/** The head number of a head record (read before its blocks, whose Common its pool needs). */
export function headNumberOf(bytes: Uint8Array): bigint {
  try {
    return bytesToBigInt((RLP.decode(bytes) as Uint8Array[])[0]!);
  } catch (err) {
    throw new DataDirError(`the head record is malformed (${(err as Error).message})`);
  }
}

/** The head record; its pool transactions are decoded with `common` (head's). */
export function decodeHead(bytes: Uint8Array, common: () => Common): HeadRecord {
  try {
    const [head, headHash, edited, pool, controls] = RLP.decode(bytes) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array[][], Uint8Array];
    const txCommon = pool.length === 0 ? undefined : common();
    return {
      head: bytesToBigInt(head),
      headHash,
      editedRoot: edited.length === 0 ? undefined : edited,
      pool: pool.map(([tx, sender]) => ({ tx: createTxFromRLP(tx!, { common: txCommon! }), sender: new Address(sender!) })),
      controls: Buffer.from(controls).toString('utf8'),
    };
  } catch (err) {
    throw new DataDirError(`the head record is malformed (${(err as Error).message})`);
  }
}

const bigintsOut = (_key: string, v: unknown) => (typeof v === 'bigint' ? { $: '0x' + v.toString(16) } : v);
const bigintsIn = (_key: string, v: unknown) =>
  v !== null && typeof v === 'object' && '$' in v && Object.keys(v).length === 1 ? BigInt((v as { $: string }).$) : v;
export const controlsJson = (value: unknown) => JSON.stringify(value, bigintsOut);
export const parseControls = <T>(json: string): T => JSON.parse(json, bigintsIn) as T;
