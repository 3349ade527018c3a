/** The log object (SPEC 2.3): geth's field order (with its blockTimestamp), block-wide logIndex, `removed` false. */
import { bytesHex, quantityHex } from '../../hex.js';
import type { MinedBlock, StoredLog } from '../engine/chain/types.js';
import { headerOf } from './mined.js';
import { txHashHex } from './wireText.js';

/** Where a log sits: its block and transaction. */
export interface LogPlacement {
  readonly blockHash: Uint8Array;
  readonly blockNumber: bigint;
  readonly blockTimestamp: bigint;
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
  blockTimestamp: string;
  logIndex: string;
  removed: false;
}

export function formatLog(log: StoredLog, at: LogPlacement): WireLog {
  return wireLog(log, bytesHex(at.blockHash), quantityHex(at.blockNumber), quantityHex(at.blockTimestamp), bytesHex(at.transactionHash), at.transactionIndex);
}

/** The wire object of a log from the hex strings of where it sits. */
export function wireLog(
  log: StoredLog,
  blockHash: string,
  blockNumber: string,
  blockTimestamp: string,
  transactionHash: string,
  transactionIndex: number,
): WireLog {
  return {
    address: log.address.toString(),
    topics: log.topics.map(bytesHex),
    data: bytesHex(log.data),
    blockNumber,
    transactionHash,
    transactionIndex: quantityHex(transactionIndex),
    blockHash,
    blockTimestamp,
    logIndex: quantityHex(log.logIndex),
    removed: false,
  };
}

/** A block's log texts made so far (by position among the block's logs) and the hex strings that go into them. */
interface BlockLogTexts {
  readonly blockHash: string;
  readonly blockNumber: string;
  readonly blockTimestamp: string;
  readonly texts: string[];
}

/** Per block object: a mined block's logs never change; a new pending block is a new object. */
const texts = new WeakMap<MinedBlock, BlockLogTexts>();

/**
 * The JSON text of the wire object of a log of a mined block (what JSON.stringify makes of it),
 * `position` being its place among all the block's logs in receipt order; made once per block object.
 */
export function minedLogJson(mined: MinedBlock, position: number, txIndex: number, log: StoredLog): string {
  let block = texts.get(mined);
  if (block === undefined)
    texts.set(
      mined,
      (block = { blockHash: bytesHex(mined.hash), blockNumber: quantityHex(mined.number), blockTimestamp: quantityHex(headerOf(mined).timestamp), texts: [] }),
    );
  const text = block.texts[position];
  if (text !== undefined) return text;
  return (block.texts[position] = JSON.stringify(wireLog(log, block.blockHash, block.blockNumber, block.blockTimestamp, txHashHex(mined, txIndex), txIndex)));
}
