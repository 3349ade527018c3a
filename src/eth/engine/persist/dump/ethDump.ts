/**
 * One eth network in a dump: its chain as a chain image (every block with its senders, transaction hashes and
 * receipts, the pool, and the trie nodes reachable from the kept state roots; image/chainImage.ts, keyed by the
 * genesis hash so it loads only onto the chain it grew from) and, before it, a JSON line of what is not chain data:
 * chain id, head, head's root with unmined edits, the miner's mode and time controls, the coinbase, impersonations
 * and the pool's minimum tip. Nothing of the wall clock goes in: the same chain gives the same bytes.
 *
 * Layout: MAGIC, u32 format, u32 length of the JSON, the JSON (UTF-8), the chain image (checksummed itself).
 */
import { Address, equalsBytes } from '@ethereumjs/util';
import type { EthChain } from '../../chain/chain.js';
import type { ChainParts, PendingTx } from '../../chain/types.js';
import { createTxFromRLP } from '@ethereumjs/tx';
import { decodeChainImage, encodeChainImage } from '../../image/chainImage.js';
import type { Miner, MinerState } from '../../mining/miner.js';
import type { PoolSettings } from '../../mining/send.js';
import type { Snapshots } from '../../control/snapshots.js';
import { asImpersonated, hasStandInSignature, type Impersonation } from '../../wallet/impersonation.js';
import { hexBytes, plainHex } from '../../../../hex.js';
import { DumpError } from '../../../../persist/dumpError.js';
import { reachableNodesYielding } from './reachable.js';
import { isForkStore } from '../../fork/forkBase.js';

const MAGIC = Buffer.from('devgate-eth-dump\0');
/** Bumped whenever the layout or the meaning of a field changes. */
export const ETH_DUMP_FORMAT = 1;

/** What an eth network is made of, as far as a dump is concerned (a network's engine gives it). */
export interface EthDumpSource {
  readonly chain: EthChain;
  readonly miner: Miner;
  readonly snapshots?: Snapshots;
  readonly impersonation?: Impersonation;
  readonly pool?: PoolSettings;
}

/** The JSON line: every bigint as a decimal string, bytes as plain hex. */
interface Meta {
  network: string;
  chainId: string;
  genesis: string;
  head: string;
  headHash: string;
  editedRoot: string | null;
  miner: Record<keyof MinerState, string | number | boolean | null>;
  coinbase: string | null;
  impersonation: { addresses: string[]; auto: boolean } | null;
  minTip: string;
}

/** An eth dump read and checked against the chain it is for, ready to apply (see ethLoad.ts). */
export interface EthDump {
  readonly network: string;
  readonly parts: ChainParts;
  readonly editedRoot: Uint8Array | undefined;
  readonly miner: MinerState;
  readonly coinbase: Address | undefined;
  readonly impersonation: { readonly addresses: readonly string[]; readonly auto: boolean } | undefined;
  readonly minTip: bigint;
}

const str = (v: bigint | undefined) => (v === undefined ? null : v.toString(10));

/** The kept nodes of each chain's last dump and the roots they were walked from (nodes never change: content-addressed). */
const lastWalk = new WeakMap<EthChain, { readonly roots: ReadonlySet<string>; readonly nodes: Map<string, Uint8Array> }>();

/**
 * The nodes reachable from `roots`: while every root of the chain's last dump is still kept (a chain that only grew),
 * only what is new is walked (interval dumps of a long chain), else everything again (blocks left: their nodes go).
 */
async function keptNodes(chain: EthChain, store: ChainParts['nodes'], roots: readonly Uint8Array[]): Promise<Map<string, Uint8Array>> {
  const keys = new Set(roots.map((r) => plainHex(r)));
  const last = lastWalk.get(chain);
  const grown = last !== undefined && [...last.roots].every((r) => keys.has(r));
  const nodes = grown
    ? await reachableNodesYielding(
        store,
        roots.filter((r) => !last.roots.has(plainHex(r))),
        new Map(last.nodes),
      )
    : await reachableNodesYielding(store, roots);
  lastWalk.set(chain, { roots: keys, nodes });
  return nodes;
}

/**
 * The bytes of an eth network's dump. Call it on the chain's writer (or when nothing writes), so head, pool and
 * controls agree; the trie walk gives reads their turns (they change nothing), the encoding does not.
 */
export async function encodeEthDump(network: string, t: EthDumpSource): Promise<Uint8Array> {
  const parts = t.chain.parts();
  const head = t.chain.head();
  const headerRoot = (head.raw?.header ?? head.header).stateRoot;
  const edited = t.chain.stateRootOf(head);
  const editedRoot = equalsBytes(edited, headerRoot) ? undefined : edited;
  const roots = parts.blocks.map((m) => (m.raw?.header ?? m.header).stateRoot);
  if (editedRoot !== undefined) roots.push(editedRoot);
  // A fork's store is what it fetched plus what it wrote, whole: its tries reach subtrees it never fetched (docs/fork.md).
  const nodes = isForkStore(parts.nodes) ? parts.nodes : await keptNodes(t.chain, parts.nodes, roots);
  const s = t.miner.state();
  const coinbase = t.miner.nextHeader().coinbase;
  const meta: Meta = {
    network,
    chainId: t.chain.chainId.toString(10),
    genesis: plainHex(parts.blocks[0]!.hash),
    head: head.number.toString(10),
    headHash: plainHex(head.hash),
    editedRoot: editedRoot === undefined ? null : plainHex(editedRoot),
    miner: {
      automine: s.automine,
      intervalMs: s.intervalMs ?? null,
      increase: str(s.increase),
      totalIncrease: str(s.totalIncrease),
      nextTimestamp: str(s.nextTimestamp),
      timestampInterval: str(s.timestampInterval),
      nextBaseFee: str(s.nextBaseFee),
      gasLimit: str(s.gasLimit),
      nextPrevRandao: str(s.nextPrevRandao),
    },
    coinbase: coinbase === undefined ? null : plainHex(coinbase.bytes),
    impersonation: t.impersonation === undefined ? null : { addresses: [...t.impersonation.state().addresses], auto: t.impersonation.state().auto },
    minTip: (t.pool?.minTip ?? 0n).toString(10),
  };
  const json = Buffer.from(JSON.stringify(meta));
  const image = encodeChainImage({ ...parts, nodes }, parts.blocks[0]!.hash);
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32LE(ETH_DUMP_FORMAT, 0);
  lengths.writeUInt32LE(json.length, 4);
  return Buffer.concat([MAGIC, lengths, json, image]);
}

/** A short text that changes whenever the network's dump would (head, head's edits, pool, miner, coinbase, impersonations, min tip). */
export function ethDumpFingerprint(t: EthDumpSource): string {
  const head = t.chain.head();
  const s = t.miner.state();
  const miner = [s.automine, s.intervalMs, s.increase, s.totalIncrease, s.nextTimestamp, s.timestampInterval, s.nextBaseFee, s.gasLimit, s.nextPrevRandao].map(
    String,
  );
  const pool = t.chain.pendingTransactions().map((p) => plainHex(p.tx.hash()));
  return JSON.stringify([
    plainHex(head.hash),
    plainHex(t.chain.stateRootOf(head)),
    pool,
    miner,
    t.miner.nextHeader().coinbase?.toString() ?? null,
    t.impersonation?.state() ?? null,
    String(t.pool?.minTip ?? 0n),
  ]);
}

/** Reads an eth dump for `chain` (its Common and dev accounts); throws DumpError naming the problem, changing nothing. */
export function decodeEthDump(bytes: Uint8Array, chain: EthChain, network: string): EthDump {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < MAGIC.length + 8 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new DumpError('not a devgate eth dump');
  if (buf.readUInt32LE(MAGIC.length) !== ETH_DUMP_FORMAT)
    throw new DumpError(`eth dump of format ${buf.readUInt32LE(MAGIC.length)}, this devgate reads format ${ETH_DUMP_FORMAT}`);
  const jsonEnd = MAGIC.length + 8 + buf.readUInt32LE(MAGIC.length + 4);
  if (jsonEnd > buf.length) throw new DumpError('eth dump truncated');
  let meta: Meta;
  try {
    meta = JSON.parse(buf.toString('utf8', MAGIC.length + 8, jsonEnd)) as Meta;
  } catch {
    throw new DumpError('eth dump has an unreadable header');
  }
  if (meta.chainId !== chain.chainId.toString(10))
    throw new DumpError(
      `the dump of network ${JSON.stringify(meta.network)} is of chain id ${meta.chainId}; network ${JSON.stringify(network)} has chain id ${chain.chainId}`,
    );
  // The chain's first block: its genesis, or a fork's fork block (a fork's dump loads only onto a fork of the same block).
  const base = chain.base();
  const first = base.number === 0n ? 'genesis' : `block ${base.number}`;
  if (meta.genesis !== plainHex(base.hash))
    throw new DumpError(
      `the dump of network ${JSON.stringify(meta.network)} starts from block 0x${meta.genesis}; network ${JSON.stringify(network)} starts from ${first} 0x${plainHex(base.hash)} (another seed or fork)`,
    );
  let parts: ChainParts;
  try {
    parts = decodeChainImage(buf.subarray(jsonEnd), { key: base.hash, common: chain.common, accounts: chain.devAccounts(), first: base.number });
  } catch (err) {
    throw new DumpError(`eth dump of network ${JSON.stringify(meta.network)}: ${(err as Error).message}`);
  }
  const head = parts.blocks[parts.blocks.length - 1];
  if (head === undefined || head.number.toString(10) !== meta.head || plainHex(head.hash) !== meta.headHash)
    throw new DumpError('eth dump: its blocks do not end at the head it names');
  if (!equalsBytes(parts.blocks[0]!.hash, base.hash)) throw new DumpError(`eth dump: its first block is not the network's ${first}`);
  try {
    return controlsOf(meta, parts);
  } catch (err) {
    throw new DumpError(`eth dump has an unreadable header: ${(err as Error).message}`);
  }
}

/** The pool with each impersonated transaction answering its sender again (a decoded one would recover another). */
function poolOf(pool: readonly PendingTx[]): PendingTx[] {
  return pool.map((p) =>
    hasStandInSignature(p.tx, p.sender)
      ? { tx: asImpersonated(createTxFromRLP(p.tx.serialize(), { common: p.tx.common, freeze: false }), p.sender), sender: p.sender }
      : p,
  );
}

function controlsOf(meta: Meta, parts: ChainParts): EthDump {
  const big = (v: unknown) => (v === null || v === undefined ? undefined : BigInt(v as string));
  const m = meta.miner;
  return {
    network: meta.network,
    parts: { ...parts, pool: poolOf(parts.pool) },
    editedRoot: meta.editedRoot === null ? undefined : hexBytes(meta.editedRoot),
    miner: {
      automine: m.automine === true,
      intervalMs: typeof m.intervalMs === 'number' ? m.intervalMs : undefined,
      increase: big(m.increase) ?? 0n,
      totalIncrease: big(m.totalIncrease) ?? 0n,
      nextTimestamp: big(m.nextTimestamp),
      timestampInterval: big(m.timestampInterval),
      nextBaseFee: big(m.nextBaseFee),
      gasLimit: big(m.gasLimit),
      ...(big(m.nextPrevRandao) !== undefined ? { nextPrevRandao: big(m.nextPrevRandao) } : {}),
    },
    coinbase: meta.coinbase === null ? undefined : new Address(hexBytes(meta.coinbase)),
    impersonation: meta.impersonation ?? undefined,
    minTip: BigInt(meta.minTip),
  };
}
