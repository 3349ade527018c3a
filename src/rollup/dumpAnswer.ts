/**
 * What devnet_dump answers (and writes to a file) and devnet_load reads: a JSON object around the rollup dump that
 * devgate's whole-gateway state files already hold for the network (src/rollup/persist/rollupDump.ts: the
 * rollup snapshot of src/rollup/snapshot.ts, keyed by chain id and genesis block, checksummed), gzip'd and in base64,
 * so the dump survives any JSON client unchanged (re-serialized, pretty-printed, keys reordered). The other members
 * say what the dump holds, for people; loading trusts only `data` (its own key and checksum).
 *
 * starknet-devnet's dump is a JSON array of the requests it replays on load; devgate keeps the executed chain
 * instead (every hash exact, nothing re-run), so its dump is this object. devnet_load also takes the whole JSON-RPC
 * response that carried it (`{"jsonrpc", "id", "result": {...}}`), as `curl > file` saves it.
 */
import { gzipSync } from 'node:zlib';
import { DumpError } from '../persist/dumpError.js';
import { decodeRollupDump, encodeRollupDump, type RollupDump } from './persist/rollupDump.js';
import { readStateInput } from '../persist/stateFile.js';
import { gunzipCapped, gunzipCappedSync, MAX_UNZIPPED_BYTES, UnzipTooLarge } from '../persist/unzip.js';
import { RollupError } from '../errors.js';
import type { RollupChain } from './engine/chain.js';
import { findDumpFlaw } from './engine/load.js';
import { feltHex } from './format.js';

/** The `format` member of a dump: what devnet_load recognises. */
export const DUMP_FORMAT = 'devgate-rollup-dump/1';

/** A dump as devnet_dump answers it. */
export interface DumpAnswer {
  readonly format: typeof DUMP_FORMAT;
  readonly network: string;
  readonly chain_id: string;
  readonly block_number: number;
  readonly block_hash: string;
  readonly pending_transactions: number;
  /** The rollup dump's bytes, gzip'd (level 1), in base64. */
  readonly data: string;
}

/** The chain's dump, as of now (encoded at once: the chain may move on while the answer is written). */
export function dumpAnswer(chain: RollupChain, network: string): DumpAnswer {
  const bytes = encodeRollupDump(chain);
  const parts = chain.parts();
  const head = parts.blocks.at(-1)!;
  return {
    format: DUMP_FORMAT,
    network,
    chain_id: feltHex(chain.config.chainId),
    block_number: Number(head.number),
    block_hash: feltHex(head.hash),
    pending_transactions: parts.pendingTxs.length,
    data: gzipSync(bytes, { level: 1 }).toString('base64'),
  };
}

/** A dump loading failed (file, shape, checksum, another chain): starknet-devnet's code -1 for dump and load errors. */
export const dumpFailure = (message: string): RollupError => new RollupError(-1, message);

/**
 * At most this many bytes once unzipped: a guard against a small gzip that unzips to gigabytes (one request must not
 * take the process's memory or hold its event loop for long); a 1,000-block rollup dumps to under 1 MB.
 */
export const MAX_DUMP_BYTES = MAX_UNZIPPED_BYTES;

/** The gzip'd bytes of a dump given as a JSON value (devnet_dump's answer, or the JSON-RPC response carrying it). */
function dumpData(value: unknown): Buffer {
  let v = value;
  if (isObject(v) && v.jsonrpc === '2.0' && 'result' in v) v = v.result;
  if (Array.isArray(v))
    throw dumpFailure(
      "this is starknet-devnet's dump (a list of requests to replay); devgate loads only its own dumps (devnet_dump's answer), which keep the executed chain",
    );
  if (!isObject(v) || v.format !== DUMP_FORMAT)
    throw dumpFailure(`not a devgate rollup dump: want devnet_dump's answer, an object with "format": "${DUMP_FORMAT}"`);
  if (typeof v.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v.data)) throw dumpFailure('the dump\'s "data" is not base64');
  return Buffer.from(v.data, 'base64');
}

/** A failure to unzip a dump's data, as devnet_load answers it. */
function unzipFailure(err: unknown): RollupError {
  if (err instanceof UnzipTooLarge) return dumpFailure(`the dump's "data" unzips to more than ${MAX_DUMP_BYTES / 2 ** 20} MB`);
  return dumpFailure('the dump\'s "data" is damaged (not gzip, or truncated)');
}

/**
 * Reads a dump for `chain`: devnet_dump's answer as a JSON value (or the JSON-RPC response carrying it). Throws a
 * RollupError naming the problem, before anything changes. Unzips on the calling thread: for the programmatic
 * handle's sync `load()`; devnet_load uses readDumpAnswerAsync.
 */
export function readDumpAnswer(value: unknown, chain: RollupChain, network: string): RollupDump {
  const data = dumpData(value);
  let bytes: Uint8Array;
  try {
    bytes = gunzipCappedSync(data, MAX_DUMP_BYTES);
  } catch (err) {
    throw unzipFailure(err);
  }
  return checked(() => decodeRollupDump(bytes, chain, network), network);
}

/**
 * readDumpAnswer, unzipping on libuv's thread pool (1 MB chunks, the same 256 MB cap), so the event loop serves
 * other clients meanwhile: a request's 256 MB of data held every network for the whole unzip.
 */
export async function readDumpAnswerAsync(value: unknown, chain: RollupChain, network: string): Promise<RollupDump> {
  const data = dumpData(value);
  let bytes: Uint8Array;
  try {
    bytes = await gunzipCapped(data, MAX_DUMP_BYTES);
  } catch (err) {
    throw unzipFailure(err);
  }
  return checked(() => decodeRollupDump(bytes, chain, network), network);
}

/** A decoded dump whose chain passed findDumpFlaw; RollupError (-1) otherwise. */
function checked(decode: () => RollupDump, network: string): RollupDump {
  let dump: RollupDump;
  try {
    dump = decode();
  } catch (err) {
    if (err instanceof DumpError) throw dumpFailure(err.message);
    throw err;
  }
  let flaw: string | undefined;
  try {
    flaw = findDumpFlaw(dump.parts);
  } catch {
    flaw = 'its chain is unreadable';
  }
  if (flaw !== undefined) throw dumpFailure(`rollup dump for network ${JSON.stringify(network)}: ${flaw}`);
  return dump;
}

const STATE_FILE = Buffer.from('devgate-state\0');

/**
 * Reads a dump file for `chain`: devnet_dump's answer as JSON text (or the JSON-RPC response carrying it), or a
 * whole-gateway state file (`--dump-state`, `gw.dumpState()`; gzip'd or not), of which the network's own section is
 * taken. Throws a RollupError naming the problem, before anything changes. Unzips off the event loop, as
 * readDumpAnswerAsync.
 */
export async function readDumpBytes(bytes: Buffer, chain: RollupChain, network: string, file: string): Promise<RollupDump> {
  const unzipped = bytes[0] === 0x1f && bytes[1] === 0x8b ? await gunzipCapped(bytes, MAX_DUMP_BYTES).catch(() => undefined) : bytes;
  if (unzipped?.subarray(0, STATE_FILE.length).equals(STATE_FILE)) {
    let sections;
    try {
      const input = readStateInput(unzipped);
      sections = input.kind === 'devgate' ? input.sections : [];
    } catch (err) {
      throw dumpFailure(`${file}: ${(err as Error).message}`);
    }
    const own = sections.find((s) => s.kind === 'rollup' && s.name === network);
    if (own === undefined)
      throw dumpFailure(
        `${file} is a devgate state file without network ${JSON.stringify(network)} (it holds ${sections.map((s) => s.name).join(', ') || 'none'})`,
      );
    return checked(() => decodeRollupDump(own.bytes, chain, network), network);
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw dumpFailure(`${file} is not JSON: want a file devnet_dump wrote (or its answer saved as JSON), or a devgate state file`);
  }
  return readDumpAnswerAsync(value, chain, network);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
