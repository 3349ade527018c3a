/** The log object (SPEC 2.3): geth's field order, block-wide logIndex, `removed` false. */
import { bytesHex, quantityHex } from '../../hex.js';
import type { StoredLog } from '../engine/types.js';

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
  return {
    address: log.address.toString(),
    topics: log.topics.map(bytesHex),
    data: bytesHex(log.data),
    blockNumber: quantityHex(at.blockNumber),
    transactionHash: bytesHex(at.transactionHash),
    transactionIndex: quantityHex(at.transactionIndex),
    blockHash: bytesHex(at.blockHash),
    logIndex: quantityHex(log.logIndex),
    removed: false,
  };
}
