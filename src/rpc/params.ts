/**
 * Parameter decoders shared by every method: one per parameter kind. A decoder turns a JSON value
 * into a typed value or throws InvalidArgument with a message that says what was expected; the
 * dispatcher prefixes it with the argument's position (`invalid argument 0: ...`).
 */
import { InvalidArgument } from '../errors.js';

export type Decoder<T> = (value: unknown) => T;

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';
export const BLOCK_TAGS: readonly BlockTag[] = ['latest', 'earliest', 'pending', 'safe', 'finalized'];

/** A block by tag or number. */
export type BlockRef = { tag: BlockTag } | { number: bigint };
/** Which block a request means: a tag, a number, or (EIP-1898) a hash. */
export type BlockSelector = BlockRef | { hash: Uint8Array; requireCanonical: boolean };

const HEX_RE = /^[0-9a-fA-F]*$/;

function hexBody(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new InvalidArgument(`expected ${what} as a 0x-prefixed hex string, got ${describe(value)}`);
  if (!value.startsWith('0x') && !value.startsWith('0X')) throw new InvalidArgument('hex string without 0x prefix');
  const body = value.slice(2);
  if (!HEX_RE.test(body)) throw new InvalidArgument(`invalid hex string ${JSON.stringify(truncate(value))}`);
  return body;
}

/** A short description of a JSON value's type, for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(truncate(value))}`;
  return `${typeof value} ${String(value)}`;
}

function truncate(s: string): string {
  return s.length > 80 ? s.slice(0, 77) + '...' : s;
}

/** The bytes of an even-length hex body, in a Uint8Array of their own (copied at once, not by iterator). */
function bytesOfHex(body: string): Uint8Array {
  return new Uint8Array(Buffer.from(body, 'hex'));
}

/** Arbitrary-length byte data (`0x`, `0x00ff`). Odd length is an error, as in geth. */
export const hexData: Decoder<Uint8Array> = (value) => {
  const body = hexBody(value, 'data');
  if (body.length % 2 !== 0) throw new InvalidArgument('hex string of odd length');
  return bytesOfHex(body);
};

/** Fixed-length byte data. */
export function fixedBytes(length: number, what: string): Decoder<Uint8Array> {
  return (value) => {
    const body = hexBody(value, what);
    if (body.length !== length * 2) throw new InvalidArgument(`hex string has length ${body.length}, want ${length * 2} for ${what}`);
    return bytesOfHex(body);
  };
}

/** A 20-byte address. */
export const address: Decoder<Uint8Array> = fixedBytes(20, 'an address');
/** A 32-byte hash. */
export const hash32: Decoder<Uint8Array> = fixedBytes(32, 'a 32-byte hash');

/** A hex quantity of at most `bits` bits: `0x0`, `0x1a`; no leading zeros, no empty `0x`. */
export function quantityOf(bits: number): Decoder<bigint> {
  return (value) => {
    if (typeof value === 'number' || typeof value === 'bigint') throw new InvalidArgument(`expected a 0x-prefixed hex quantity, got ${describe(value)}`);
    const body = hexBody(value, 'a quantity');
    if (body.length === 0) throw new InvalidArgument('hex string "0x" is not a quantity');
    if (body.length > 1 && body[0] === '0') throw new InvalidArgument('hex number with leading zero digits');
    const n = BigInt('0x' + body);
    if (n >> BigInt(bits) !== 0n) throw new InvalidArgument(`hex number > ${bits} bits`);
    return n;
  };
}

/** A 256-bit quantity (values, gas prices, storage slots given as numbers). */
export const quantity: Decoder<bigint> = quantityOf(256);
/** A 64-bit quantity (block numbers, indexes, gas). */
export const uint64: Decoder<bigint> = quantityOf(64);

/** A JSON boolean. */
export const bool: Decoder<boolean> = (value) => {
  if (typeof value !== 'boolean') throw new InvalidArgument(`expected a boolean, got ${describe(value)}`);
  return value;
};

/** A JSON string. */
export const string: Decoder<string> = (value) => {
  if (typeof value !== 'string') throw new InvalidArgument(`expected a string, got ${describe(value)}`);
  return value;
};

/** A block number or tag: `0x10`, `latest`, `earliest`, `pending`, `safe`, `finalized`. */
export const blockNumberOrTag: Decoder<BlockRef> = (value) => {
  if (typeof value === 'string' && (BLOCK_TAGS as readonly string[]).includes(value)) return { tag: value as BlockTag };
  if (typeof value === 'string' && !value.startsWith('0x') && !value.startsWith('0X')) {
    throw new InvalidArgument(`unknown block tag ${JSON.stringify(truncate(value))}, want a hex block number or one of ${BLOCK_TAGS.join(', ')}`);
  }
  if (typeof value !== 'string') throw new InvalidArgument(`expected a block number or tag, got ${describe(value)}`);
  return { number: uint64(value) };
};

/**
 * A block number, tag or hash (EIP-1898): what eth_call, eth_getBalance and the other state reads take.
 * A bare 32-byte hex string is read as a hash; `{blockHash, requireCanonical}` and `{blockNumber}` objects too.
 */
export const blockNumberOrHash: Decoder<BlockSelector> = (value) => {
  if (typeof value === 'string' && value.length === 66) return { hash: hash32(value), requireCanonical: false };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (Object.hasOwn(o, 'blockHash') && Object.hasOwn(o, 'blockNumber'))
      throw new InvalidArgument('cannot specify both blockHash and blockNumber, choose one or the other');
    if (Object.hasOwn(o, 'blockHash')) {
      const requireCanonical = o.requireCanonical === undefined ? false : field('requireCanonical', bool)(o.requireCanonical);
      return { hash: field('blockHash', hash32)(o.blockHash), requireCanonical };
    }
    if (Object.hasOwn(o, 'blockNumber')) return field('blockNumber', blockNumberOrTag)(o.blockNumber);
    throw new InvalidArgument('block object needs blockHash or blockNumber');
  }
  return blockNumberOrTag(value);
};

/** Wraps a decoder so its error names the member of an object: `"to": hex string ...`. */
export function field<T>(name: string, decode: Decoder<T>): Decoder<T> {
  return (value) => {
    try {
      return decode(value);
    } catch (err) {
      if (err instanceof InvalidArgument) throw new InvalidArgument(`${JSON.stringify(name)}: ${err.message}`);
      throw err;
    }
  };
}

/** An array whose every element is decoded by `decode`; errors name the index. */
export function arrayOf<T>(decode: Decoder<T>, what = 'an array'): Decoder<T[]> {
  return (value) => {
    if (!Array.isArray(value)) throw new InvalidArgument(`expected ${what}, got ${describe(value)}`);
    return value.map((v, i) => field(String(i), decode)(v));
  };
}

/** A JSON object (not null, not an array). */
export function object(value: unknown, what = 'an object'): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidArgument(`expected ${what}, got ${describe(value)}`);
  return value as Record<string, unknown>;
}
