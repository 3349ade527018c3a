/**
 * devgate's state file: the dumps of a gateway's networks in one checksummed container, and the reading of any
 * state input (devgate's container, gzip'd or not; anvil's JSON state, gzip'd or not). Anything that is neither,
 * truncated or damaged is refused with DumpError before a network is touched.
 *
 * Layout: MAGIC, u32 format, u32 length of the JSON index, the index (`[{ "name", "kind", "length" }, ...]`, UTF-8),
 * the sections one after the other, and the CRC-32 of everything before it (u32, little-endian).
 */
import { crc32 } from 'node:zlib';
import { DumpError } from './dumpError.js';
import { NETWORK_KINDS, type NetworkKind } from '../kindNames.js';
import { isAnvilState, parseAnvilState, type AnvilState } from '../eth/engine/persist/dump/anvilState.js';
import { gunzipCapped, gunzipCappedSync, isGzip, UnzipTooLarge } from './unzip.js';

const MAGIC = Buffer.from('devgate-state\0');
/** Bumped whenever the layout changes (each section has its own format too). */
export const STATE_FILE_FORMAT = 1;

/** One network's dump in a state file. */
export interface StateSection {
  readonly name: string;
  readonly kind: NetworkKind;
  readonly bytes: Uint8Array;
}

/** What a state input holds: devgate's sections, or anvil's state. */
export type StateInput = { readonly kind: 'devgate'; readonly sections: readonly StateSection[] } | { readonly kind: 'anvil'; readonly state: AnvilState };

/** The bytes of a state file holding `sections`. */
export function encodeStateFile(sections: readonly StateSection[]): Buffer {
  const index = Buffer.from(JSON.stringify(sections.map((s) => ({ name: s.name, kind: s.kind, length: s.bytes.length }))));
  const head = Buffer.alloc(8);
  head.writeUInt32LE(STATE_FILE_FORMAT, 0);
  head.writeUInt32LE(index.length, 4);
  const body = Buffer.concat([MAGIC, head, index, ...sections.map((s) => s.bytes)]);
  const out = Buffer.allocUnsafe(body.length + 4);
  body.copy(out);
  out.writeUInt32LE(crc32(body), body.length);
  return out;
}

const unzipError = (err: unknown) =>
  new DumpError(
    err instanceof UnzipTooLarge
      ? `the state is gzip'd and ${err.message}`
      : `the state is gzip'd but does not unzip (truncated or damaged): ${(err as Error).message}`,
  );

/** A state input unzipped (off the event loop, within the unzip cap) if it is gzip'd; DumpError naming the problem otherwise. */
export async function unzipStateInput(input: Uint8Array): Promise<Uint8Array> {
  if (!isGzip(input)) return input;
  try {
    return await gunzipCapped(input);
  } catch (err) {
    throw unzipError(err);
  }
}

/** Reads a state input: devgate's state file or anvil's JSON, either gzip'd (within the unzip cap) or not. Throws DumpError naming the problem. */
export function readStateInput(input: Uint8Array): StateInput {
  let buf = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (isGzip(buf)) {
    try {
      buf = gunzipCappedSync(buf);
    } catch (err) {
      throw unzipError(err);
    }
  }
  if (buf.length >= MAGIC.length && buf.subarray(0, MAGIC.length).equals(MAGIC)) return { kind: 'devgate', sections: decodeStateFile(buf) };
  const first = buf.subarray(0, 64).toString('utf8').trimStart()[0];
  if (first === '{') {
    let json: unknown;
    try {
      json = JSON.parse(buf.toString('utf8'));
    } catch (err) {
      throw new DumpError(`the state is neither a devgate state file nor valid JSON (truncated?): ${(err as Error).message}`);
    }
    if (!isAnvilState(json)) throw new DumpError('the JSON is not an anvil state file (it has no "accounts" object)');
    return { kind: 'anvil', state: parseAnvilState(json) };
  }
  throw new DumpError(buf.length === 0 ? 'the state is empty' : 'not a devgate state file, nor an anvil state file (JSON)');
}

function decodeStateFile(buf: Buffer): StateSection[] {
  const fixed = MAGIC.length + 8;
  if (buf.length < fixed + 4) throw new DumpError('devgate state file truncated');
  const format = buf.readUInt32LE(MAGIC.length);
  if (format !== STATE_FILE_FORMAT) throw new DumpError(`devgate state file of format ${format}; this devgate reads format ${STATE_FILE_FORMAT}`);
  const body = buf.subarray(0, buf.length - 4);
  if (crc32(body) !== buf.readUInt32LE(body.length)) throw new DumpError('devgate state file checksum mismatch (truncated or damaged)');
  const indexEnd = fixed + buf.readUInt32LE(MAGIC.length + 4);
  let index: unknown;
  try {
    index = JSON.parse(body.toString('utf8', fixed, indexEnd));
  } catch {
    throw new DumpError('devgate state file has an unreadable index');
  }
  if (!Array.isArray(index)) throw new DumpError('devgate state file has an unreadable index');
  const sections: StateSection[] = [];
  let at = indexEnd;
  for (const entry of index as { name?: unknown; kind?: unknown; length?: unknown }[]) {
    const { name, kind, length } = entry ?? {};
    if (typeof name !== 'string' || !NETWORK_KINDS.includes(kind as NetworkKind) || typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0)
      throw new DumpError('devgate state file has an unreadable index');
    if (at + length > body.length) throw new DumpError('devgate state file truncated');
    sections.push({ name, kind: kind as NetworkKind, bytes: body.subarray(at, at + length) });
    at += length;
  }
  if (at !== body.length) throw new DumpError('devgate state file has trailing bytes');
  return sections;
}
