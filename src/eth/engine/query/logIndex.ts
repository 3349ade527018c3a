/**
 * A per-block index of logs for eth_getLogs, built on first use and kept per MinedBlock object (a mined
 * block never changes; a new pending block is a new object). It replaces re-hashing the filter into the
 * header bloom for every block: which addresses and topics a block has are exact sets, so a block is
 * ruled out with a few lookups, and each log is matched by comparing short string keys.
 */
import type { MinedBlock, StoredLog } from '../chain/types.js';
import { slicePause } from '../../../turnSlice.js';

/** A block's logs in block order, with their transactions and the keys filters compare. */
export interface BlockLogIndex {
  /** Every log of the block, flattened in receipt order. */
  readonly logs: readonly StoredLog[];
  /** `txIndexes[i]`: the transaction of `logs[i]`. */
  readonly txIndexes: readonly number[];
  /** `addressKeys[i]`: bytesKey of the address of `logs[i]`. */
  readonly addressKeys: readonly string[];
  /** `topicKeys[i][p]`: bytesKey of topic p of `logs[i]`. */
  readonly topicKeys: readonly (readonly string[])[];
  /** The addresses of the block's logs. */
  readonly addresses: ReadonlySet<string>;
  /** Per topic position: the topics the block's logs have there. */
  readonly topicsAt: readonly ReadonlySet<string>[];
  /** The most topics any log of the block has. */
  readonly maxTopics: number;
}

/** A compact, exact string key for bytes (one char per byte), for Set and === lookups. */
export function bytesKey(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

const indexes = new WeakMap<MinedBlock, BlockLogIndex>();

/** The log index of a block; built once per block object. */
export function blockLogIndex(block: MinedBlock): BlockLogIndex {
  let index = indexes.get(block);
  if (index === undefined) indexes.set(block, (index = buildIndex(block)));
  return index;
}

function buildIndex(block: MinedBlock): BlockLogIndex {
  const b = new IndexBuilder();
  block.receipts.forEach((receipt, txIndex) => {
    for (const log of receipt.logs) b.add(log, txIndex);
  });
  return b.index();
}

/**
 * The log index of a block as blockLogIndex makes it, built a slice of `slice` logs at a time with the event loop
 * turning between slices (#25: the index of a 36,000-log block was ~15 ms of one turn in the filters' fan-out).
 * Answers at once when the index is built.
 */
export async function blockLogIndexSliced(block: MinedBlock, slice = 1000): Promise<BlockLogIndex> {
  const built = indexes.get(block);
  if (built !== undefined) return built;
  // One build per block: every connection's fan-out and the filters' wait for the same one (each built its own).
  let building = builds.get(block);
  if (building === undefined) builds.set(block, (building = buildSliced(block, slice)));
  return building;
}

/** Sliced builds under way, by block. */
const builds = new WeakMap<MinedBlock, Promise<BlockLogIndex>>();

async function buildSliced(block: MinedBlock, slice: number): Promise<BlockLogIndex> {
  const b = new IndexBuilder();
  let n = 0;
  for (let txIndex = 0; txIndex < block.receipts.length; txIndex++) {
    for (const log of block.receipts[txIndex]!.logs) {
      b.add(log, txIndex);
      if (++n % slice === 0) {
        // The event loop's shared slice (#25): on in this turn while it lasts, else behind the other chains.
        const pause = slicePause();
        if (pause !== undefined) await pause;
      }
    }
  }
  // Built meanwhile by a reader (eth_getLogs builds it at once): that one is kept.
  let index = indexes.get(block);
  if (index === undefined) indexes.set(block, (index = b.index()));
  builds.delete(block);
  return index;
}

class IndexBuilder {
  private readonly logs: StoredLog[] = [];
  private readonly txIndexes: number[] = [];
  private readonly addressKeys: string[] = [];
  private readonly topicKeys: string[][] = [];
  private readonly addresses = new Set<string>();
  private readonly topicsAt: Set<string>[] = [];
  private maxTopics = 0;

  add(log: StoredLog, txIndex: number): void {
    const address = bytesKey(log.address.bytes);
    const topics = log.topics.map(bytesKey);
    this.logs.push(log);
    this.txIndexes.push(txIndex);
    this.addressKeys.push(address);
    this.topicKeys.push(topics);
    this.addresses.add(address);
    for (let p = 0; p < topics.length; p++) (this.topicsAt[p] ??= new Set()).add(topics[p]!);
    if (topics.length > this.maxTopics) this.maxTopics = topics.length;
  }

  index(): BlockLogIndex {
    const { logs, txIndexes, addressKeys, topicKeys, addresses, topicsAt, maxTopics } = this;
    return { logs, txIndexes, addressKeys, topicKeys, addresses, topicsAt, maxTopics };
  }
}
