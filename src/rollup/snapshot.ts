/**
 * A built rollup chain as bytes, and back, without hashing or checking anything again (building
 * hashes every transaction with Pedersen or Poseidon, verifies signatures and commits states). The
 * bytes are a header line (magic, format, key, CRC-32 of the body) and a JSON body in which every
 * block, transaction, state and contract appears once and is referred to by index, so objects the
 * chain shares stay shared; bigints are written as `{"$": "0x..."}`. Anything unsound throws
 * RollupSnapshotError, never a half-restored chain.
 */
import { crc32 } from 'node:zlib';
import type { RollupChainParts, TxLocation } from './engine/chain.js';
import type { ContractState, ExecutedTx, Felt, GasPrices, RollupState, SealedBlock } from './engine/types.js';
import { plainHex } from '../hex.js';

const MAGIC = 'devgate-rollup';
/** Bumped whenever the layout or the meaning of a field changes. */
export const ROLLUP_SNAPSHOT_FORMAT = 2;

export class RollupSnapshotError extends Error {
  override name = 'RollupSnapshotError';
}

/** A table of distinct objects (by identity), each encoded once. */
class Table<T, E> {
  private readonly index = new Map<T, number>();
  readonly rows: E[] = [];
  constructor(private readonly encode: (value: T) => E) {}
  ref(value: T): number {
    let i = this.index.get(value);
    if (i === undefined) {
      // Reserve the slot first: encode may add rows to other tables, never to this one.
      i = this.rows.length;
      this.index.set(value, i);
      this.rows.push(undefined as E);
      this.rows[i] = this.encode(value);
    }
    return i;
  }
}

const bigintsOut = (_key: string, v: unknown) => (typeof v === 'bigint' ? { $: '0x' + v.toString(16) } : v);
const bigintsIn = (_key: string, v: unknown) =>
  v !== null && typeof v === 'object' && '$' in v && Object.keys(v).length === 1 ? BigInt((v as { $: string }).$) : v;

/** The JSON body: tables of contracts, states, transactions and blocks, and the chain's own fields. */
interface Body {
  contracts: (Omit<ContractState, 'storage'> & { storage: [Felt, Felt][] })[];
  states: [Felt, number][][];
  txs: ExecutedTx[];
  blocks: (Omit<SealedBlock, 'state' | 'transactions'> & { state: number; transactions: number[] })[];
  chain: number[];
  byHash: [Felt, number][];
  /** [hash, block index, index in block] or [hash, -1, index in the pending block]. */
  locations: [Felt, number, number][];
  pendingTxs: number[];
  pendingState: number;
  anchorSec: bigint;
  anchorMs: number;
  nextSealMs: number | null;
  l1Head: bigint | null;
  /** Absent in files written before they were kept: the seed's prices. */
  gasPrices?: GasPrices;
  nextGasPrices?: GasPrices;
}

/** The bytes of a rollup chain's parts under `key` (32 bytes: what the chain was built from). */
export function encodeRollupSnapshot(parts: RollupChainParts, key: Uint8Array): Uint8Array {
  if (key.length !== 32) throw new RollupSnapshotError('a snapshot key has 32 bytes');
  const contracts = new Table<ContractState, Body['contracts'][number]>((c) => ({ ...c, storage: [...c.storage] }));
  const states = new Table<RollupState, Body['states'][number]>((s) => [...s].map(([address, c]) => [address, contracts.ref(c)]));
  const txs = new Table<ExecutedTx, ExecutedTx>((t) => t);
  const blocks = new Table<SealedBlock, Body['blocks'][number]>((b) => ({
    ...b,
    state: states.ref(b.state),
    transactions: b.transactions.map((t) => txs.ref(t)),
  }));
  const body: Body = {
    chain: parts.blocks.map((b) => blocks.ref(b)),
    byHash: [...parts.byHash].map(([hash, b]) => [hash, blocks.ref(b)]),
    locations: [...parts.txs].map(([hash, loc]): [Felt, number, number] =>
      'block' in loc ? [hash, blocks.ref(loc.block), loc.index] : [hash, -1, loc.pendingIndex],
    ),
    pendingTxs: parts.pendingTxs.map((t) => txs.ref(t)),
    pendingState: states.ref(parts.pendingState),
    anchorSec: parts.anchorSec,
    anchorMs: parts.anchorMs,
    nextSealMs: Number.isFinite(parts.nextSealMs) ? parts.nextSealMs : null,
    l1Head: parts.l1Head ?? null,
    ...(parts.gasPrices === undefined ? {} : { gasPrices: parts.gasPrices }),
    ...(parts.nextGasPrices === undefined ? {} : { nextGasPrices: parts.nextGasPrices }),
    contracts: contracts.rows,
    states: states.rows,
    txs: txs.rows,
    blocks: blocks.rows,
  };
  const text = Buffer.from(JSON.stringify(body, bigintsOut));
  const header = JSON.stringify({ magic: MAGIC, format: ROLLUP_SNAPSHOT_FORMAT, key: plainHex(key), crc32: crc32(text) });
  return Buffer.concat([Buffer.from(header + '\n'), text]);
}

/** The parts a snapshot holds; throws RollupSnapshotError if the bytes are not a sound snapshot under `key`. */
export function decodeRollupSnapshot(file: Uint8Array, key: Uint8Array): RollupChainParts {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const newline = buf.indexOf(0x0a);
  let header: { magic?: unknown; format?: unknown; key?: unknown; crc32?: unknown };
  try {
    header = JSON.parse(buf.toString('utf8', 0, newline < 0 ? 0 : newline));
  } catch {
    throw new RollupSnapshotError('not a devgate rollup snapshot');
  }
  if (header.magic !== MAGIC) throw new RollupSnapshotError('not a devgate rollup snapshot');
  if (header.format !== ROLLUP_SNAPSHOT_FORMAT) throw new RollupSnapshotError('snapshot of another format');
  if (header.key !== plainHex(key)) throw new RollupSnapshotError('snapshot of another chain');
  const text = buf.subarray(newline + 1);
  if (crc32(text) !== header.crc32) throw new RollupSnapshotError('snapshot checksum mismatch');
  try {
    return partsOf(JSON.parse(text.toString('utf8'), bigintsIn) as Body);
  } catch (err) {
    throw new RollupSnapshotError(`unreadable snapshot: ${(err as Error).message}`);
  }
}

function partsOf(body: Body): RollupChainParts {
  const at = <T>(rows: readonly T[], i: number): T => {
    if (!Number.isInteger(i) || i < 0 || i >= rows.length) throw new Error(`no row ${i}`);
    return rows[i]!;
  };
  const contracts = body.contracts.map((c): ContractState => ({ ...c, storage: new Map(c.storage) }));
  const states = body.states.map((entries): RollupState => new Map(entries.map(([address, c]) => [address, at(contracts, c)])));
  const txs = body.txs;
  const blocks = body.blocks.map((b): SealedBlock => ({ ...b, state: at(states, b.state), transactions: b.transactions.map((t) => at(txs, t)) }));
  return {
    blocks: body.chain.map((b) => at(blocks, b)),
    byHash: new Map(body.byHash.map(([hash, b]) => [hash, at(blocks, b)])),
    txs: new Map<Felt, TxLocation>(body.locations.map(([hash, b, index]) => [hash, b === -1 ? { pendingIndex: index } : { block: at(blocks, b), index }])),
    pendingTxs: body.pendingTxs.map((t) => at(txs, t)),
    pendingState: at(states, body.pendingState),
    anchorSec: body.anchorSec,
    anchorMs: body.anchorMs,
    nextSealMs: body.nextSealMs ?? Number.POSITIVE_INFINITY,
    ...(body.l1Head === null ? {} : { l1Head: body.l1Head }),
    ...(body.gasPrices === undefined ? {} : { gasPrices: gasPricesOf(body.gasPrices) }),
    ...(body.nextGasPrices === undefined ? {} : { nextGasPrices: gasPricesOf(body.nextGasPrices) }),
  };
}

function gasPricesOf(p: GasPrices): GasPrices {
  if (typeof p?.wei !== 'bigint' || typeof p.fri !== 'bigint') throw new Error('bad gas prices');
  return { wei: p.wei, fri: p.fri };
}
