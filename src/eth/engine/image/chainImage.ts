/**
 * A built chain as bytes, and back, without executing anything: the trie node store (every node,
 * so historical state stays readable), each block's RLP with its senders and receipts, and the
 * pending pool. Block hashes and total difficulty are computed again from the headers, which must
 * chain up; the file is checksummed (CRC-32) and EthChain.restore checks head's state root is in
 * the store; anything else throws ChainImageError, never a half-restored chain. Blocks and receipts
 * are decoded on first use (a start reads only the headers).
 *
 * Layout (u32 little-endian): MAGIC, format, 32-byte key, block count, per block: RLP length,
 * block RLP, tx count, senders (20 bytes each), tx hashes (32 each), receipts length, receipts
 * (RLP); pool count, per pending tx: RLP length, tx RLP, sender; dev account count, per account:
 * address (20 bytes) and private key (32 bytes), so a restore derives nothing; node count, per node:
 * u8 key length, key, value length, value; last the CRC-32 of everything before it.
 */
import { crc32 } from 'node:zlib';
import { createBlockFromRLP, createBlockHeaderFromRLP, type Block, type BlockHeader, type BlockOptions } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Address, bigIntToUnpaddedBytes, bytesToBigInt, equalsBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { hasSchedule } from '../chain/create.js';
import { EthChain, type ChainParts, type EthChainOptions } from '../chain/chain.js';
import { prepareCommon } from '../exec/common.js';
import { big as uintOf, rawBlockFields } from '../chain/rawBlock.js';
import { listSpans, rlpItem, rlpViews, type Nested } from '../codec/rlpReader.js';
import { ImageNodes } from './imageNodes.js';
import { encodeRawNode, type RawNode } from '../state/trieWriter.js';
import type { DevAccount, MinedBlock, PendingTx, RawBlockFields, StoredLog, StoredReceipt } from '../chain/types.js';
import { plainHex } from '../../../hex.js';

const MAGIC = new TextEncoder().encode('devgate-chain\0');
/** Bumped whenever the layout or the meaning of a field changes. */
export const CHAIN_IMAGE_FORMAT = 3;

export class ChainImageError extends Error {
  override name = 'ChainImageError';
}

const big = (n: bigint) => bigIntToUnpaddedBytes(n);

/** Appends bytes and little-endian u32s to a growing list of chunks. */
class Writer {
  readonly chunks: Uint8Array[] = [];
  size = 0;
  bytes(b: Uint8Array): void {
    this.chunks.push(b);
    this.size += b.length;
  }
  u32(n: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32LE(n);
    this.bytes(b);
  }
  sized(b: Uint8Array): void {
    this.u32(b.length);
    this.bytes(b);
  }
}

/** The bytes of a chain's parts under `key` (32 bytes: what the chain was built from). */
export function encodeChainImage(parts: ChainParts, key: Uint8Array): Uint8Array {
  if (key.length !== 32) throw new ChainImageError('a chain image key has 32 bytes');
  const w = new Writer();
  w.bytes(MAGIC);
  w.u32(CHAIN_IMAGE_FORMAT);
  w.bytes(key);
  w.u32(parts.blocks.length);
  for (const m of parts.blocks) {
    // A restored block is written from the bytes it was read from (nothing decoded, hashed or encoded again).
    w.sized(m.saved?.block ?? m.block.serialize());
    w.u32(m.txHashes.length);
    if (m.saved !== undefined) w.bytes(m.saved.senders);
    else for (const s of m.senders) w.bytes(s.bytes);
    for (const h of m.txHashes) w.bytes(h);
    // One buffer written in place (as RLP.encode gives it, without its many small concatenations: ~2.5x faster).
    w.sized(m.saved?.receipts ?? encodeRawNode(m.receipts.map(encodeReceipt) as RawNode));
  }
  w.u32(parts.pool.length);
  for (const p of parts.pool) {
    w.sized(p.tx.serialize());
    w.bytes(p.sender.bytes);
  }
  w.u32(parts.accounts.length);
  for (const a of parts.accounts) {
    if (a.privateKey.length !== 32) throw new ChainImageError('a dev account key has 32 bytes');
    w.bytes(a.address.bytes);
    w.bytes(a.privateKey);
  }
  // Values are bytes, or unprefixed hex where a trie wrote with string encoding (storage tries do):
  // both are saved as bytes, and the node store reads either back as the same bytes.
  w.u32(parts.nodes.size);
  for (const [k, v] of parts.nodes as Map<string, Uint8Array | string>) {
    const kb = Buffer.from(k, 'hex');
    if (kb.length > 255 || plainHex(kb) !== k) throw new ChainImageError(`node key ${k} is not short hex`);
    const vb = typeof v === 'string' ? Buffer.from(v, 'hex') : v;
    if (typeof v === 'string' && vb.length * 2 !== v.length) throw new ChainImageError(`node ${k} is not hex`);
    w.bytes(Uint8Array.of(kb.length));
    w.bytes(kb);
    w.sized(vb);
  }
  const out = Buffer.allocUnsafe(w.size + 4);
  let at = 0;
  for (const c of w.chunks) {
    out.set(c, at);
    at += c.length;
  }
  out.writeUInt32LE(crc32(out.subarray(0, at)), at);
  return out;
}

/** What restoring needs besides the bytes: the chain's Common, as the seed gives it. */
export interface ChainImageContext {
  readonly key: Uint8Array;
  readonly common: Common;
  /** The dev accounts; default: those saved in the chain image. */
  readonly accounts?: readonly DevAccount[];
  readonly options?: EthChainOptions;
  /** The number of the first block (default 0: a genesis; a fork's chain starts at its fork block). */
  readonly first?: bigint;
}

/** The chain a chain image holds; throws ChainImageError if the bytes are not a sound chain image under `ctx.key`. */
export async function restoreChainImage(file: Uint8Array, ctx: ChainImageContext): Promise<EthChain> {
  const parts = decodeChainImage(file, ctx);
  try {
    return await EthChain.restore(parts, ctx.options);
  } catch (err) {
    throw new ChainImageError(`chain image does not hold a sound chain: ${(err as Error).message}`);
  }
}

/** The parts a chain image holds (nodes read lazily from `file`), without making a chain; throws ChainImageError if unsound. */
export function decodeChainImage(file: Uint8Array, ctx: ChainImageContext): ChainParts {
  try {
    return decodeParts(Buffer.from(file.buffer, file.byteOffset, file.byteLength), ctx);
  } catch (err) {
    throw err instanceof ChainImageError ? err : new ChainImageError(`unreadable chain image: ${(err as Error).message}`);
  }
}

function decodeParts(buf: Buffer, ctx: ChainImageContext): ChainParts {
  const fail = (why: string): never => {
    throw new ChainImageError(why);
  };
  const head = MAGIC.length + 4 + 32;
  if (buf.length < head + 4 || !equalsBytes(buf.subarray(0, MAGIC.length), MAGIC)) fail('not a devgate chain image');
  if (buf.readUInt32LE(MAGIC.length) !== CHAIN_IMAGE_FORMAT) fail('chain image of another format');
  if (!equalsBytes(buf.subarray(MAGIC.length + 4, head), ctx.key)) fail('chain image of another chain');
  const body = buf.subarray(0, buf.length - 4);
  if (crc32(body) !== buf.readUInt32LE(body.length)) fail('chain image checksum mismatch');
  let at = head;
  const u32 = () => {
    if (at + 4 > body.length) fail('chain image truncated');
    const n = body.readUInt32LE(at);
    at += 4;
    return n;
  };
  // Plain Uint8Array views (not Buffers, whose slice() shares memory) of the file's bytes.
  const take = (n: number) => {
    if (at + n > body.length) fail('chain image truncated');
    const view = new Uint8Array(body.buffer, body.byteOffset + at, n);
    at += n;
    return view;
  };

  // A block picks its hardfork only on a scheduled chain, as the chain built it (a far-future time on a one-fork
  // chain would make @ethereumjs's timestamp-to-number rounding pick a fork the block was not built under).
  const opts = { common: prepareCommon(ctx.common), setHardfork: hasSchedule(ctx.common) };
  const keccak = ctx.common.customCrypto.keccak256 ?? keccak_256;
  const blocks: MinedBlock[] = [];
  let td = 0n;
  let parent: Uint8Array | undefined;
  const count = u32();
  for (let i = 0; i < count; i++) {
    const raw = take(u32());
    const n = u32();
    const senders = take(20 * n);
    const hashes = Array.from({ length: n }, () => take(32));
    const receiptsRaw = take(u32());
    const header = blockHeader(raw, keccak);
    if (header.number !== BigInt(i) + (ctx.first ?? 0n)) fail(`block ${i} is numbered ${header.number}`);
    if (parent !== undefined && !equalsBytes(header.parentHash, parent)) fail(`block ${i} does not follow block ${i - 1}`);
    parent = header.hash;
    td += header.difficulty;
    blocks.push(lazyMinedBlock(raw, opts, header, td, senders, hashes, receiptsRaw, keccak));
  }
  const pool: PendingTx[] = [];
  const poolCount = u32();
  // Head's Common, as its Block gives it (its header's, decoded alone: a start needs no whole Block).
  const txCommon = poolCount === 0 ? ctx.common : (blocks[blocks.length - 1]?.header.common ?? ctx.common);
  for (let i = 0; i < poolCount; i++) pool.push({ tx: createTxFromRLP(take(u32()), { common: txCommon }), sender: new Address(take(20)) });
  const accountCount = u32();
  const accounts: DevAccount[] = [];
  for (let i = 0; i < accountCount; i++) accounts.push({ address: new Address(take(20)), privateKey: take(32) });
  const nodeCount = u32();
  // Only an index over the nodes: each is read out of the file's bytes on first use.
  const nodes = new ImageNodes(body, at, nodeCount);
  at = nodes.end;
  if (at !== body.length) fail('chain image has trailing bytes');
  return { common: ctx.common, nodes, blocks, pool, accounts: ctx.accounts ?? accounts };
}

/** What a start reads of a raw block's header in place; `end` is where the header's RLP ends (the transaction list follows). */
export interface HeaderFacts {
  readonly hash: Uint8Array;
  readonly parentHash: Uint8Array;
  readonly number: bigint;
  readonly difficulty: bigint;
  readonly start: number;
  readonly end: number;
}

/** Hash, parent hash, number and difficulty of a raw block, read from its header's RLP in place. */
export function blockHeader(raw: Uint8Array, keccak: (b: Uint8Array) => Uint8Array): HeaderFacts {
  if (raw[0]! < 0xc0) throw new ChainImageError('a block is not an RLP list starting with its header');
  const block = rlpItem(raw, 0, 'a block header');
  const header = rlpItem(raw, block.start, 'a block header');
  if (raw[block.start]! < 0xc0) throw new ChainImageError('a block is not an RLP list starting with its header');
  // Fields 0 (parent hash), 7 (difficulty) and 8 (number) of the header list.
  const fields: { start: number; length: number }[] = [];
  for (let at = header.start; fields.length < 9 && at < header.end; ) {
    const item = rlpItem(raw, at, 'a block header');
    fields.push(item);
    at = item.end;
  }
  if (fields.length < 9) throw new ChainImageError('a block header has too few fields');
  const field = (i: number) => raw.subarray(fields[i]!.start, fields[i]!.start + fields[i]!.length);
  return {
    hash: keccak(raw.subarray(block.start, header.end)),
    parentHash: field(0),
    difficulty: uintOf(field(7)),
    number: uintOf(field(8)),
    start: block.start,
    end: header.end,
  };
}

/** Where each transaction of a raw block lies: a typed one's bytes (type byte and RLP), or a legacy one's whole RLP list. */
function txSpans(raw: Uint8Array, headerEnd: number): { start: number; end: number }[] {
  const list = rlpItem(raw, headerEnd);
  if (raw[headerEnd]! < 0xc0) throw new ChainImageError('a block has no transaction list');
  const spans: { start: number; end: number }[] = [];
  for (let at = list.start; at < list.end; ) {
    const item = rlpItem(raw, at);
    spans.push(raw[at]! >= 0xc0 ? { start: at, end: item.end } : { start: item.start, end: item.end });
    at = item.end;
  }
  return spans;
}

/**
 * A value made on first use and held weakly: it is kept while anything uses it and until a full garbage
 * collection finds nothing else holding it (then it is made again on its next use). A restored chain's
 * decoded blocks, transactions and receipts are all made again from bytes the chain keeps anyway, and
 * kept strongly a load touching every block held them all (1,000 x 10 bench seed: ~25 MB of heap).
 */
class Remade<T extends object> {
  private ref: WeakRef<T> | undefined;
  get(make: () => T): T {
    let value = this.ref?.deref();
    if (value === undefined) this.ref = new WeakRef((value = make()));
    return value;
  }
  peek(): T | undefined {
    return this.ref?.deref();
  }
  clear(): void {
    this.ref = undefined;
  }
}

/**
 * A mined block whose Block, header, single transactions, senders (20 bytes each in `sendersRaw`) and
 * receipts are decoded on first use, each no further than asked: a header or one transaction costs a
 * fraction of the whole Block, and the transaction hashes come from the chain image. The decoded
 * objects are held weakly (Remade): equal every time, and freed once nothing uses them.
 */
export function lazyMinedBlock(
  raw: Uint8Array,
  opts: BlockOptions,
  facts: HeaderFacts,
  totalDifficulty: bigint,
  sendersRaw: Uint8Array,
  txHashes: readonly Uint8Array[],
  receiptsRaw: Uint8Array,
  keccak: (b: Uint8Array) => Uint8Array,
): MinedBlock {
  const block = new Remade<Block>();
  const header = new Remade<BlockHeader>();
  /** Single transactions decoded without the Block, each held weakly on its own. */
  let txs: Remade<TypedTransaction>[] = [];
  const senders = new Remade<Address[]>();
  const receipts = new Remade<StoredReceipt[]>();
  let spans: { start: number; end: number }[] | undefined;
  let fields: RawBlockFields | undefined;
  let receiptSpans: [number, number][] | undefined;
  const headerOnly = () => block.peek()?.header ?? header.get(() => createBlockHeaderFromRLP(raw.subarray(facts.start, facts.end), opts));
  return {
    hash: facts.hash,
    number: facts.number,
    totalDifficulty,
    txHashes,
    saved: { block: raw, senders: sendersRaw, receipts: receiptsRaw },
    get senders() {
      return senders.get(() => Array.from({ length: sendersRaw.length / 20 }, (_, i) => new Address(sendersRaw.subarray(i * 20, i * 20 + 20))));
    },
    get block() {
      return block.get(() => {
        // From now on its header and transactions serve, not second decoded copies.
        header.clear();
        txs = [];
        return createBlockFromRLP(raw, opts);
      });
    },
    get header() {
      return headerOnly();
    },
    transactionAt(index: number): TypedTransaction {
      const whole = block.peek();
      if (whole !== undefined) return whole.transactions[index]!;
      spans ??= txSpans(raw, facts.end);
      const span = spans[index];
      if (span === undefined) throw new RangeError(`block ${facts.number} has no transaction ${index}`);
      // The header's Common (its hardfork set by the header), as the Block gives its transactions.
      return (txs[index] ??= new Remade()).get(() => createTxFromRLP(raw.subarray(span.start, span.end), { common: headerOnly().common }));
    },
    get receipts() {
      return receipts.get(() => (rlpViews(receiptsRaw, 0).value as Nested[][]).map(decodeReceipt));
    },
    receiptAt(index: number): StoredReceipt {
      const all = receipts.peek();
      if (all !== undefined) return all[index]!;
      const span = (receiptSpans ??= listSpans(receiptsRaw, 0))[index];
      if (span === undefined) throw new RangeError(`block ${facts.number} has no receipt ${index}`);
      return decodeReceipt(rlpViews(receiptsRaw, span[0]).value as Nested[]);
    },
    get raw() {
      return (fields ??= rawBlockFields(raw, keccak));
    },
  };
}

/** [status or root flag, value, cumulative gas, gas used, price, bloom, logs, contract, blob fields]. */
export function encodeReceipt(r: StoredReceipt): Nested {
  const logs: Nested = r.logs.map((l) => [l.address.bytes, [...l.topics], l.data, big(BigInt(l.logIndex))]);
  return [
    r.root === undefined ? Uint8Array.of(0) : Uint8Array.of(1),
    r.root ?? big(BigInt(r.status ?? 0)),
    big(r.cumulativeGasUsed),
    big(r.gasUsed),
    big(r.effectiveGasPrice),
    r.logsBloom,
    logs,
    r.contractAddress?.bytes ?? new Uint8Array(),
    r.blobGasUsed === undefined ? [] : [big(r.blobGasUsed), big(r.blobGasPrice ?? 0n)],
  ];
}

function decodeReceipt(n: Nested[]): StoredReceipt {
  const [flag, value, cumulative, gasUsed, price, bloom, logs, contract, blob] = n as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array[][],
    Uint8Array,
    Uint8Array[],
  ];
  const out: { -readonly [K in keyof StoredReceipt]: StoredReceipt[K] } = {
    cumulativeGasUsed: bytesToBigInt(cumulative),
    gasUsed: bytesToBigInt(gasUsed),
    effectiveGasPrice: bytesToBigInt(price),
    logsBloom: bloom,
    logs: logs.map(
      ([address, topics, data, index]): StoredLog => ({
        address: new Address(address as Uint8Array),
        topics: topics as unknown as Uint8Array[],
        data: data as Uint8Array,
        logIndex: Number(bytesToBigInt(index as Uint8Array)),
      }),
    ),
  };
  if (flag[0] === 1) out.root = value;
  else out.status = Number(bytesToBigInt(value)) as 0 | 1;
  if (contract.length > 0) out.contractAddress = new Address(contract);
  if (blob.length === 2) {
    out.blobGasUsed = bytesToBigInt(blob[0]!);
    out.blobGasPrice = bytesToBigInt(blob[1]!);
  }
  return out;
}
