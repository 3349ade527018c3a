/**
 * Decoders that read a parameter exactly as geth's JSON decoding does, with geth's error texts, for the methods
 * that answer as geth does (debug_getRaw*, eth_getStorageValues, eth_getHeaderBy*, eth_getUncleBy*): the
 * execution-apis fixtures hold their exact errors.
 */
import { InvalidArgument } from '../errors.js';
import type { EthChain } from './engine/chain/chain.js';
import type { MinedBlock } from './engine/chain/types.js';
import { isPending } from './params.js';
import { BLOCK_TAGS, blockNumberOrHash, blockNumberOrTag, describe, type BlockRef, type BlockSelector, type Decoder } from '../rpc/params.js';
import { plainHex } from '../hex.js';

const isTag = (value: string) => (BLOCK_TAGS as readonly string[]).includes(value);
const hasPrefix = (value: string) => value.startsWith('0x') || value.startsWith('0X');

/** geth's rpc.BlockNumberOrHash: a tag, a hex number, a 32-byte hash or an EIP-1898 object; a bare string that is none is `hex string without 0x prefix`. */
export const gethBlockNumberOrHash: Decoder<BlockSelector> = (value) => {
  if (typeof value === 'string' && value.length !== 66 && !isTag(value) && !hasPrefix(value)) throw new InvalidArgument('hex string without 0x prefix');
  return blockNumberOrHash(value);
};

/** geth's rpc.BlockNumber: a tag or a hex number; any other string is `hex string without 0x prefix`. */
export const gethBlockNumber: Decoder<BlockRef> = (value) => {
  if (typeof value === 'string' && !isTag(value) && !hasPrefix(value)) throw new InvalidArgument('hex string without 0x prefix');
  return blockNumberOrTag(value);
};

/**
 * Fixed-size bytes as geth's hexutil.UnmarshalFixedJSON reads them into `goType` (common.Hash, common.Address),
 * with its errors: `json: cannot unmarshal hex string without 0x prefix into Go value of type common.Hash`,
 * `hex string has length 62, want 64 for common.Hash`.
 */
export function gethFixedBytes(length: number, goType: string): Decoder<Uint8Array> {
  const typeError = (what: string) => new InvalidArgument(`json: cannot unmarshal ${what} into Go value of type ${goType}`);
  return (value) => {
    if (typeof value !== 'string') throw typeError('non-string');
    return fixedText(value, length, goType, typeError);
  };
}

/** The text of fixed-size bytes as geth's hexutil.UnmarshalFixedText reads it (`typeName`: Hash, Address); `wrap` turns its decoding errors into the caller's. */
function fixedText(text: string, length: number, typeName: string, wrap: (what: string) => InvalidArgument): Uint8Array {
  let body = text;
  if (text.length > 0) {
    if (!hasPrefix(text)) throw wrap('hex string without 0x prefix');
    body = text.slice(2);
    if (body.length % 2 !== 0) throw wrap('hex string of odd length');
  }
  if (body.length !== length * 2) throw new InvalidArgument(`hex string has length ${body.length}, want ${length * 2} for ${typeName}`);
  if (!/^[0-9a-fA-F]*$/.test(body)) throw wrap('invalid hex string');
  return new Uint8Array(Buffer.from(body, 'hex'));
}

/**
 * Bytes as geth's hexutil.Bytes reads a JSON argument (the raw transaction of eth_sendRawTransaction), with its
 * errors: `json: cannot unmarshal non-string into Go value of type hexutil.Bytes`, and for the text `hex string
 * without 0x prefix`, `hex string of odd length` or `invalid hex string` in the same sentence. `""` and `"0x"` are
 * no bytes.
 */
export const gethBytes: Decoder<Uint8Array> = (value) => {
  const typeError = (what: string) => new InvalidArgument(`json: cannot unmarshal ${what} into Go value of type hexutil.Bytes`);
  if (typeof value !== 'string') throw typeError('non-string');
  if (value.length === 0) return new Uint8Array(0);
  if (!hasPrefix(value)) throw typeError('hex string without 0x prefix');
  const body = value.slice(2);
  if (body.length % 2 !== 0) throw typeError('hex string of odd length');
  if (!/^[0-9a-fA-F]*$/.test(body)) throw typeError('invalid hex string');
  return new Uint8Array(Buffer.from(body, 'hex'));
};

/** A 32-byte hash as geth reads a common.Hash argument. */
export const gethHash = gethFixedBytes(32, 'common.Hash');

/** The most storage slots one eth_getStorageValues may ask for, all addresses together (geth's maxGetStorageSlots). */
export const MAX_STORAGE_SLOTS = 1024;

/** What eth_getStorageValues asks: per address (lowercase hex, as geth's map keys), the slots, in order. */
export type StorageRequests = Map<string, { address: Uint8Array; slots: Uint8Array[] }>;

/**
 * eth_getStorageValues's request, as geth reads a map[common.Address][]common.Hash: an object whose keys are
 * addresses (0x and 40 hex digits) and whose values are arrays of 32-byte hashes. Keys naming the same address
 * (in other letter case) are one entry, the last one given, as in geth's map; null is no entry at all.
 */
export const storageRequests: Decoder<StorageRequests> = (value) => {
  // JSON null decodes to Go's nil map: no slots, which the method answers `empty request`.
  if (value === null) return new Map();
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidArgument(
      `json: cannot unmarshal ${Array.isArray(value) ? 'array' : describeGo(value)} into Go value of type map[common.Address][]common.Hash`,
    );
  }
  const out: StorageRequests = new Map();
  for (const [key, keys] of Object.entries(value as Record<string, unknown>)) {
    const address = fixedText(key, 20, 'Address', (what) => new InvalidArgument(what));
    if (keys !== null && !Array.isArray(keys)) throw new InvalidArgument(`json: cannot unmarshal ${describeGo(keys)} into Go value of type []common.Hash`);
    const slots = (keys ?? []).map((k) => gethHash(k));
    out.set(plainHex(address), { address, slots });
  }
  return out;
};

/** A JSON value's kind as Go's encoding/json names it in its type errors. */
function describeGo(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : describe(value);
}

/**
 * The block of a debug_getRaw* request, found as geth finds it: by hash straight in the chain, by number or tag
 * through the chain's blocks. The pending block is not in the chain (geth looks its hash up and fails): none.
 * None is null for the methods (SPEC 7), where geth answers `"0x"`, an error or `[]` (docs/differences.md "From geth").
 */
export async function rawRequestBlock(chain: EthChain, sel: BlockSelector): Promise<MinedBlock | undefined> {
  if ('hash' in sel) return chain.blockByHash(sel.hash);
  if (isPending(sel)) return undefined;
  return chain.resolveMined('tag' in sel ? (sel.tag as Exclude<typeof sel.tag, 'pending'>) : sel.number);
}
