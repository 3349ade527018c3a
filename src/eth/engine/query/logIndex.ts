/**
 * A per-block index of logs for eth_getLogs, built on first use and kept per MinedBlock object (a mined
 * block never changes; a new pending block is a new object). It replaces re-hashing the filter into the
 * header bloom for every block: which addresses and topics a block has are exact sets, so a block is
 * ruled out with a few lookups, and each log is matched by comparing short string keys.
 */
import type { MinedBlock, StoredLog } from '../chain/types.js';

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
  const logs: StoredLog[] = [];
  const txIndexes: number[] = [];
  const addressKeys: string[] = [];
  const topicKeys: string[][] = [];
  const addresses = new Set<string>();
  const topicsAt: Set<string>[] = [];
  let maxTopics = 0;
  block.receipts.forEach((receipt, txIndex) => {
    for (const log of receipt.logs) {
      const address = bytesKey(log.address.bytes);
      const topics = log.topics.map(bytesKey);
      logs.push(log);
      txIndexes.push(txIndex);
      addressKeys.push(address);
      topicKeys.push(topics);
      addresses.add(address);
      topics.forEach((t, p) => {
        (topicsAt[p] ??= new Set()).add(t);
      });
      if (topics.length > maxTopics) maxTopics = topics.length;
    }
  });
  return { logs, txIndexes, addressKeys, topicKeys, addresses, topicsAt, maxTopics };
}
