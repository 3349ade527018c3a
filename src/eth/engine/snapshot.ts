/**
 * A built chain as bytes, and back, without executing anything: the trie node store (every node,
 * so historical state stays readable), each block's RLP with its senders and receipts, and the
 * pending pool. Total difficulty is summed again from the headers. The file is checksummed
 * (sha-256) and EthChain.restore checks head's state root is in the store and the blocks chain up;
 * anything else throws SnapshotError, never a half-restored chain.
 *
 * Layout: MAGIC, u32 format, 32-byte key, u32 meta length, meta (RLP), u32 node count, then per
 * node u8 key length, key, u32 value length, value; last the sha-256 of everything before it.
 */
import { createHash } from 'node:crypto';
import { createBlockFromRLP } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP } from '@ethereumjs/tx';
import { Address, bigIntToUnpaddedBytes, bytesToBigInt, concatBytes, equalsBytes } from '@ethereumjs/util';
import { EthChain, type ChainParts, type EthChainOptions } from './chain.js';
import { minedBlock } from './receipts.js';
import type { DevAccount, MinedBlock, PendingTx, StoredLog, StoredReceipt } from './types.js';

const MAGIC = new TextEncoder().encode('devgate-chain\0');
/** Bumped whenever the layout or the meaning of a field changes. */
export const SNAPSHOT_FORMAT = 1;

export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

type Nested = Uint8Array | Nested[];
const big = (n: bigint) => bigIntToUnpaddedBytes(n);

/** The bytes of a chain's parts under `key` (32 bytes: what the chain was built from). */
export function encodeSnapshot(parts: ChainParts, key: Uint8Array): Uint8Array {
  if (key.length !== 32) throw new SnapshotError('a snapshot key has 32 bytes');
  const blocks: Nested = parts.blocks.map((m) => [m.block.serialize(), concatBytes(...m.senders.map((s) => s.bytes)), m.receipts.map(encodeReceipt)]);
  const pool: Nested = parts.pool.map((p) => [p.tx.serialize(), p.sender.bytes]);
  const meta = RLP.encode([blocks, pool]);
  let size = MAGIC.length + 4 + 32 + 4 + meta.length + 4;
  // Values are bytes, or unprefixed hex where a trie wrote with string encoding (storage tries do):
  // both are saved as bytes, and the node store reads either back as the same bytes.
  const keys: Buffer[] = [];
  const values: Uint8Array[] = [];
  for (const [k, v] of parts.nodes as Map<string, Uint8Array | string>) {
    const kb = Buffer.from(k, 'hex');
    if (kb.length > 255 || kb.toString('hex') !== k) throw new SnapshotError(`node key ${k} is not short hex`);
    const vb = typeof v === 'string' ? Buffer.from(v, 'hex') : v;
    if (typeof v === 'string' && vb.length * 2 !== v.length) throw new SnapshotError(`node ${k} is not hex`);
    keys.push(kb);
    values.push(vb);
    size += 1 + kb.length + 4 + vb.length;
  }
  const out = Buffer.allocUnsafe(size + 32);
  let at = 0;
  const bytes = (b: Uint8Array) => {
    out.set(b, at);
    at += b.length;
  };
  const u32 = (n: number) => {
    out.writeUInt32LE(n, at);
    at += 4;
  };
  bytes(MAGIC);
  u32(SNAPSHOT_FORMAT);
  bytes(key);
  u32(meta.length);
  bytes(meta);
  u32(parts.nodes.size);
  for (const [i, v] of values.entries()) {
    const kb = keys[i]!;
    out[at++] = kb.length;
    bytes(kb);
    u32(v.length);
    bytes(v);
  }
  bytes(createHash('sha256').update(out.subarray(0, at)).digest());
  return out;
}

/** What restoring needs besides the bytes: the chain's Common and dev accounts, as the seed gives them. */
export interface SnapshotContext {
  readonly key: Uint8Array;
  readonly common: Common;
  readonly accounts: readonly DevAccount[];
  readonly options?: EthChainOptions;
}

/** The chain a snapshot holds; throws SnapshotError if the bytes are not a sound snapshot under `ctx.key`. */
export async function restoreSnapshot(file: Uint8Array, ctx: SnapshotContext): Promise<EthChain> {
  let parts: ChainParts;
  try {
    parts = decodeParts(Buffer.from(file.buffer, file.byteOffset, file.byteLength), ctx);
  } catch (err) {
    throw err instanceof SnapshotError ? err : new SnapshotError(`unreadable snapshot: ${(err as Error).message}`);
  }
  try {
    return await EthChain.restore(parts, ctx.options);
  } catch (err) {
    throw new SnapshotError(`snapshot does not hold a sound chain: ${(err as Error).message}`);
  }
}

function decodeParts(buf: Buffer, ctx: SnapshotContext): ChainParts {
  const fail = (why: string): never => {
    throw new SnapshotError(why);
  };
  const head = MAGIC.length + 4 + 32;
  if (buf.length < head + 32 || !equalsBytes(buf.subarray(0, MAGIC.length), MAGIC)) fail('not a devgate chain snapshot');
  if (buf.readUInt32LE(MAGIC.length) !== SNAPSHOT_FORMAT) fail('snapshot of another format');
  if (!equalsBytes(buf.subarray(MAGIC.length + 4, head), ctx.key)) fail('snapshot of another chain');
  const body = buf.subarray(0, buf.length - 32);
  if (!equalsBytes(createHash('sha256').update(body).digest(), buf.subarray(buf.length - 32))) fail('snapshot checksum mismatch');
  let at = head;
  const u32 = () => {
    const n = body.readUInt32LE(at);
    at += 4;
    return n;
  };
  // Plain Uint8Array views (not Buffers, whose slice() shares memory) of the file's bytes.
  const take = (n: number) => {
    if (at + n > body.length) fail('snapshot truncated');
    const view = new Uint8Array(body.buffer, body.byteOffset + at, n);
    at += n;
    return view;
  };
  const [blocksRaw, poolRaw] = RLP.decode(take(u32())) as [Nested[][], Uint8Array[][]];
  const count = u32();
  const nodes = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    const length = body[at++]!;
    const k = body.toString('hex', at, at + length);
    take(length);
    nodes.set(k, take(u32()));
  }
  if (at !== body.length) fail('snapshot has trailing bytes');

  const opts = { common: ctx.common, setHardfork: true };
  const blocks: MinedBlock[] = [];
  let td = 0n;
  for (const [raw, sendersRaw, receiptsRaw] of blocksRaw as [Uint8Array, Uint8Array, Nested[][]][]) {
    const block = createBlockFromRLP(raw, opts);
    const senders = block.transactions.map((_, i) => new Address(sendersRaw.subarray(i * 20, i * 20 + 20)));
    if (sendersRaw.length !== senders.length * 20 || receiptsRaw.length !== senders.length) fail(`block ${block.header.number}: senders or receipts do not match its transactions`);
    const mined = minedBlock(block, td, senders, receiptsRaw.map(decodeReceipt));
    td = mined.totalDifficulty;
    blocks.push(mined);
  }
  const headBlock = blocks[blocks.length - 1]?.block;
  const txCommon = headBlock?.common ?? ctx.common;
  const pool: PendingTx[] = poolRaw.map(([tx, sender]) => ({ tx: createTxFromRLP(tx!, { common: txCommon }), sender: new Address(sender!) }));
  return { common: ctx.common, nodes, blocks, pool, accounts: ctx.accounts };
}

/** [status or root flag, value, cumulative gas, gas used, price, bloom, logs, contract, blob fields]. */
function encodeReceipt(r: StoredReceipt): Nested {
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
  const [flag, value, cumulative, gasUsed, price, bloom, logs, contract, blob] = n as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array[][], Uint8Array, Uint8Array[]];
  const out: { -readonly [K in keyof StoredReceipt]: StoredReceipt[K] } = {
    cumulativeGasUsed: bytesToBigInt(cumulative),
    gasUsed: bytesToBigInt(gasUsed),
    effectiveGasPrice: bytesToBigInt(price),
    logsBloom: bloom,
    logs: logs.map(([address, topics, data, index]): StoredLog => ({ address: new Address(address as Uint8Array), topics: topics as unknown as Uint8Array[], data: data as Uint8Array, logIndex: Number(bytesToBigInt(index as Uint8Array)) })),
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
