/**
 * An eth network's chain kept in a data directory. `seedStore` writes a freshly built chain (every node and
 * block) once; `restoreStore` serves a chain from the store without executing anything; `attach` then keeps
 * the store in step with the chain:
 *
 * - each sealed block, with the trie nodes written since the last commit and the new head record, is one
 *   LMDB transaction, committed and flushed before the block joins the chain (the seal gate), so no read or
 *   receipt ever shows a block a crash could lose;
 * - after every job of the chain's writer (a send, mine, state edit, snapshot, revert, reset, pool drop), the
 *   rest is committed before the job's caller is answered: blocks cut by a revert are deleted, the pool, head's
 *   unmined edits (anvil_setBalance, ... are durable at once, not at the next block), miner and impersonation
 *   state are written when they changed.
 */
import type { BlockOptions } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { createAddressFromString, equalsBytes, hexToBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { EthChain } from '../../chain/chain.js';
import { hasSchedule } from '../../chain/create.js';
import type { DevAccount, EthChainOptions, MinedBlock, PendingTx } from '../../chain/types.js';
import { prepareCommon } from '../../exec/common.js';
import type { Miner, MinerState } from '../../mining/miner.js';
import type { Impersonation } from '../../wallet/impersonation.js';
import { storedBlocks } from './blocks.js';
import {
  bodyKey,
  controlsJson,
  decodeHead,
  headNumberOf,
  decodeMeta,
  encodeBody,
  encodeHead,
  encodeIndex,
  encodeMeta,
  HEAD,
  indexKey,
  META,
  nodeKey,
  parseControls,
  SEED_HEAD,
  type HeadRecord,
  type Meta,
} from './codec.js';
import { DurableNodes } from './nodes.js';
import { DataDirError, type NetworkDb } from '../../../../persist/store.js';
import { bytesHex, plainHex, plainHexView } from '../../../../hex.js';

/** What a network's controls are, as the head record keeps them. */
interface Controls {
  readonly miner: MinerState;
  readonly impersonation: ReturnType<Impersonation['state']>;
}

/** The meta record of a network, or undefined for a network new to the data directory. */
export function storedMeta(db: NetworkDb, where: string): Meta | undefined {
  const bytes = db.get(META);
  return bytes === undefined ? undefined : decodeMeta(bytes, where);
}

/** Replaces the meta record (a seed with a new key and the same genesis). */
export async function updateMeta(db: NetworkDb, meta: Meta): Promise<void> {
  await db.put(META, encodeMeta(meta));
  await db.flushed;
}

/** What the seed gives a new network's meta record. */
export interface SeedFacts {
  readonly chainKey: string;
}

/**
 * Writes a freshly built chain to an empty network database in one transaction: every trie node, every block,
 * pool and meta (with `controls` as the seed's head record, for anvil_reset after a restart).
 */
export async function seedStore(db: NetworkDb, chain: EthChain, seed: SeedFacts, controls: string): Promise<void> {
  const parts = chain.parts();
  const head = chain.head();
  // Head's unmined edits (a fork's dev accounts are funded so: fork/forkChain.ts) are the seed's too.
  const edited = chain.stateRootOf(head);
  const editedRoot = equalsBytes(edited, (head.raw?.header ?? head.header).stateRoot) ? undefined : edited;
  const record = encodeHead({ head: head.number, headHash: head.hash, editedRoot, pool: parts.pool, controls });
  const meta: Meta = {
    format: 1,
    chainId: chain.chainId.toString(10),
    genesisHash: bytesHex(parts.blocks[0]!.hash),
    chainKey: seed.chainKey,
    seedHead: head.number.toString(10),
    accounts: parts.accounts.map((a) => ({ address: a.address.toString(), privateKey: bytesHex(a.privateKey) })),
  };
  await db.transaction(() => {
    for (const [hex, value] of parts.nodes as Map<string, Uint8Array | string>) db.put(nodeKey(hex), typeof value === 'string' ? plainHexView(value) : value);
    for (const m of parts.blocks) {
      db.put(indexKey(m.number), encodeIndex(m));
      db.put(bodyKey(m.number), encodeBody(m));
    }
    db.put(HEAD, record);
    db.put(SEED_HEAD, record);
    db.put(META, encodeMeta(meta));
  });
  await db.flushed;
}

/** A chain restored from its network database, and what it needs to be attached. */
export interface RestoredChain {
  readonly chain: EthChain;
  readonly nodes: DurableNodes;
  readonly head: HeadRecord;
  readonly seedHead: HeadRecord;
}

/** The chain a network database holds (nothing executed; blocks read on first use). Throws DataDirError if it is not sound. */
export async function restoreStore(db: NetworkDb, common: Common, opts: EthChainOptions, where: string): Promise<RestoredChain> {
  const meta = storedMeta(db, where);
  const headBytes = db.get(HEAD);
  if (meta === undefined || headBytes === undefined) throw new DataDirError(`${where}: the network's records are incomplete`);
  // The hardfork each block was built under (chain.ts draftBlock): picked by number and time only with a schedule.
  // Without one, @ethereumjs's pick by time would refuse a timestamp past 2^53 it cannot hold exactly (a mined head
  // at 0x400000000000000c did not reopen: "Maximum HF determined by block number is lower than timestamp HF").
  const blockOpts: BlockOptions = { common: prepareCommon(common), setHardfork: hasSchedule(common) };
  const keccak = common.customCrypto.keccak256 ?? keccak_256;
  const blocks = storedBlocks(db, headNumberOf(headBytes), blockOpts, keccak);
  const headOf = () => blocks[blocks.length - 1]!.header.common;
  const head = decodeHead(headBytes, headOf);
  const seedBytes = db.get(SEED_HEAD);
  if (seedBytes === undefined) throw new DataDirError(`${where}: the seed's head record is missing`);
  const seedHead = decodeHead(seedBytes, headOf);
  if (!equalsBytes(blocks[blocks.length - 1]!.hash, head.headHash))
    throw new DataDirError(`${where}: the head record names block ${bytesHex(head.headHash)}, the index ${bytesHex(blocks[blocks.length - 1]!.hash)}`);
  if (bytesHex(blocks[0]!.hash) !== meta.genesisHash) throw new DataDirError(`${where}: block 0 is not the recorded genesis`);
  const accounts: DevAccount[] = meta.accounts.map((a) => ({
    address: createAddressFromString(a.address),
    privateKey: hexToBytes(a.privateKey as `0x${string}`),
  }));
  const nodes = new DurableNodes(db);
  let chain: EthChain;
  try {
    chain = await EthChain.restore({ common, nodes, blocks, pool: head.pool, accounts }, opts);
    // Nothing else holds the chain yet: no writer to wait for.
    if (head.editedRoot !== undefined) await chain.truncate(head.head, head.editedRoot);
  } catch (err) {
    throw err instanceof DataDirError ? err : new DataDirError(`${where}: the stored chain is not sound: ${(err as Error).message}`);
  }
  nodes.takeDirty();
  return { chain, nodes, head, seedHead };
}

/** The seed's head record, as the snapshots' starting point (anvil_reset goes back to it). */
export interface SeedState {
  readonly head: bigint;
  readonly headHash: Uint8Array;
  readonly editedRoot: Uint8Array | undefined;
  readonly pool: readonly PendingTx[];
  readonly controls: Controls | undefined;
}

export const seedStateOf = (record: HeadRecord): SeedState => ({
  head: record.head,
  headHash: record.headHash,
  editedRoot: record.editedRoot,
  pool: record.pool,
  controls: record.controls === '' ? undefined : parseControls<Controls>(record.controls),
});

/** The controls' JSON, as the head record keeps them. */
export const controlsOf = (miner: Miner, impersonation: Impersonation) =>
  controlsJson({ miner: miner.state(), impersonation: impersonation.state() } satisfies Controls);

/**
 * What keeps a network's store in step with its node: each sealed block is written before it joins the chain, and
 * each command's changes (cut blocks, nodes, pool, head's edits, controls) when it ends, before it is answered.
 */
export interface ChainStore {
  /** Writes a sealed block (not yet on the chain) with its nodes and the head record it makes; a throw fails the seal. */
  sealBlock(mined: MinedBlock): Promise<void>;
  /** Writes whatever changed since the last commit. */
  commit(): Promise<void>;
  /** Blocks from `from` on left the chain (a revert or a load cut them). */
  removed(from: bigint): void;
}

/**
 * The store of a restored chain (see the file comment), after restoring miner and impersonation state from the head
 * record: the node writes through it.
 */
export function attachStore(db: NetworkDb, restored: RestoredChain, miner: Miner, impersonation: Impersonation): ChainStore {
  const { chain, nodes } = restored;
  if (restored.head.controls !== '') {
    const controls = parseControls<Controls>(restored.head.controls);
    miner.restore(controls.miner);
    impersonation.restore(controls.impersonation);
  }
  return new StoreSync(db, chain, nodes, () => controlsOf(miner, impersonation), restored.head);
}

/** What has been written, and the writes of one commit. */
class StoreSync implements ChainStore {
  /** Head number as stored. */
  private storedHead: bigint;
  /** The lowest block number changed in memory since the last commit (a revert cuts, mining re-grows). */
  private firstChanged: bigint | undefined;
  private storedRecord: Uint8Array;

  constructor(
    private readonly db: NetworkDb,
    private readonly chain: EthChain,
    private readonly nodes: DurableNodes,
    private readonly controls: () => string,
    head: HeadRecord,
  ) {
    this.storedHead = head.head;
    this.storedRecord = encodeHead(head);
  }

  removed(from: bigint): void {
    if (this.firstChanged === undefined || from < this.firstChanged) this.firstChanged = from;
  }

  /** Writes a sealed block (not yet on the chain) with its nodes and the head record it makes; flushed before it returns. */
  async sealBlock(mined: MinedBlock): Promise<void> {
    const included = new Set(mined.txHashes.map((h) => plainHex(h)));
    const pool = this.chain.pendingTransactions().filter((p) => !included.has(plainHex(p.tx.hash())));
    const record = encodeHead({ head: mined.number, headHash: mined.hash, editedRoot: undefined, pool, controls: this.controls() });
    await this.write([mined], mined.number, record);
  }

  /** Writes whatever changed since the last commit: cut blocks, nodes, pool, head's edits, controls. */
  async commit(): Promise<void> {
    const head = this.chain.head();
    const from = this.firstChanged ?? head.number + 1n;
    const blocks: MinedBlock[] = [];
    for (let n = from; n <= head.number; n++) blocks.push(this.chain.blockByNumber(n)!);
    const edited = this.chain.stateRootOf(head);
    const record = encodeHead({
      head: head.number,
      headHash: head.hash,
      editedRoot: equalsBytes(edited, head.header.stateRoot) ? undefined : edited,
      pool: this.chain.pendingTransactions(),
      controls: this.controls(),
    });
    await this.write(blocks, head.number, record);
  }

  private async write(blocks: readonly MinedBlock[], head: bigint, record: Uint8Array): Promise<void> {
    const dirty = this.nodes.takeDirty();
    const sameRecord = equalsBytes(record, this.storedRecord);
    if (dirty.size === 0 && blocks.length === 0 && sameRecord && head === this.storedHead) return;
    try {
      await this.db.transaction(() => {
        for (let n = head + 1n; n <= this.storedHead; n++) {
          this.db.remove(indexKey(n));
          this.db.remove(bodyKey(n));
        }
        for (const hex of dirty) {
          const value = this.nodes.storedValue(hex);
          if (value !== undefined) this.db.put(nodeKey(hex), value);
        }
        for (const m of blocks) {
          this.db.put(indexKey(m.number), encodeIndex(m));
          this.db.put(bodyKey(m.number), encodeBody(m));
        }
        if (!sameRecord) this.db.put(HEAD, record);
      });
      await this.db.flushed;
    } catch (err) {
      this.nodes.giveBack(dirty);
      throw new DataDirError(`could not write the data directory: ${(err as Error).message}`);
    }
    this.storedHead = head;
    this.storedRecord = record;
    this.firstChanged = undefined;
  }
}
