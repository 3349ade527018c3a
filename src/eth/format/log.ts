/** The log object (SPEC 2.3): geth's field order, block-wide logIndex, `removed` false. */
import { bytesHex, quantityHex } from '../../hex.js';
import type { MinedBlock, StoredLog } from '../engine/types.js';

/** Where a log sits: its block and transaction. */
export interface LogPlacement {
  readonly blockHash: Uint8Array;
  readonly blockNumber: bigint;
  readonly transactionHash: Uint8Array;
  readonly transactionIndex: number;
}

export interface WireLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  transactionIndex: string;
  blockHash: string;
  logIndex: string;
  removed: false;
}

export function formatLog(log: StoredLog, at: LogPlacement): WireLog {
  return wireLog(log, bytesHex(at.blockHash), quantityHex(at.blockNumber), bytesHex(at.transactionHash), at.transactionIndex);
}

function wireLog(log: StoredLog, blockHash: string, blockNumber: string, transactionHash: string, transactionIndex: number): WireLog {
  return {
    address: log.address.toString(),
    topics: log.topics.map(bytesHex),
    data: bytesHex(log.data),
    blockNumber,
    transactionHash,
    transactionIndex: quantityHex(transactionIndex),
    blockHash,
    logIndex: quantityHex(log.logIndex),
    removed: false,
  };
}

/** A block's wire logs made so far (by position among the block's logs) and the strings they share. */
interface BlockWireLogs {
  readonly blockHash: string;
  readonly blockNumber: string;
  readonly txHashes: string[];
  readonly logs: WireLog[];
}

/** Per block object: a mined block's logs never change; a new pending block is a new object. */
const formatted = new WeakMap<MinedBlock, BlockWireLogs>();

/**
 * The wire object of a log of a mined block, `position` being its place among all the block's logs in
 * receipt order; made once, then shared (callers must not change it).
 */
export function minedWireLog(mined: MinedBlock, position: number, txIndex: number, log: StoredLog): WireLog {
  let block = formatted.get(mined);
  if (block === undefined) formatted.set(mined, (block = { blockHash: bytesHex(mined.hash), blockNumber: quantityHex(mined.number), txHashes: [], logs: [] }));
  return (block.logs[position] ??= wireLog(log, block.blockHash, block.blockNumber, (block.txHashes[txIndex] ??= bytesHex(mined.block.transactions[txIndex]!.hash())), txIndex));
}
