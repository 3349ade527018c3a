/**
 * The JSON text of a mined block's wire objects, made once per MinedBlock object and then spliced into
 * every answer as is (RawJson). A mined block never changes; a new block (or a new pending block) is a
 * new object. Never used for the pending block, whose answers are made afresh.
 */
import { bytesHex } from '../../hex.js';
import { RawJson } from '../../rpc/rawJson.js';
import type { MinedBlock } from '../engine/chain/types.js';

interface BlockTexts {
  /** The block with transaction hashes. */
  hashes?: RawJson;
  /** That text cut around its transaction list, for the full form (the transactions' own texts go between). */
  aroundTxs?: { readonly head: string; readonly tail: string };
  readonly receipts: (RawJson | undefined)[];
  readonly transactions: (RawJson | undefined)[];
  /** Hex hash of each transaction (from the chain image's hashes where the block has them: no hashing). */
  readonly txHashes: (string | undefined)[];
}

const texts = new WeakMap<MinedBlock, BlockTexts>();

/** The text cache of one mined block. */
export function textsOf(mined: MinedBlock): BlockTexts {
  let t = texts.get(mined);
  if (t === undefined) texts.set(mined, (t = { receipts: [], transactions: [], txHashes: [] }));
  return t;
}

/** The hex hash of the transaction at `index` of a mined block, made once. */
export function txHashHex(mined: MinedBlock, index: number): string {
  return (textsOf(mined).txHashes[index] ??= bytesHex(mined.txHashes[index]!));
}

/** A wire object as RawJson: JSON.stringify's text of it. */
export function rawJsonOf(value: unknown): RawJson {
  return new RawJson(JSON.stringify(value));
}
