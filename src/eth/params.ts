/**
 * Decoders of the eth_ family's own parameter kinds (call object, log filter, storage slot, the block
 * parameter of eth_getBlockReceipts) and the resolution of a block parameter to a block. Errors name
 * the member (`"to": hex string has length 38, want 40 for an address`); the dispatcher adds the position.
 */
import type { AccessListBytes } from '@ethereumjs/tx';
import { Address, type EOACode7702AuthorizationListBytes } from '@ethereumjs/util';
import { InvalidArgument, ResourceNotFound } from '../errors.js';
import {
  address,
  arrayOf,
  blockNumberOrHash,
  blockNumberOrTag,
  describe,
  field,
  hash32,
  hexData,
  object,
  quantity,
  uint64,
  type BlockRef,
  type BlockSelector,
  type Decoder,
} from '../rpc/params.js';
import type { CallRequest } from './engine/exec/call.js';
import type { LogFilter } from './engine/query/logs.js';
import type { StorageKey } from './engine/query/proof.js';
import type { BlockId, MinedBlock } from './engine/chain/types.js';

/** A 20-byte address as an @ethereumjs Address. */
export const addressParam: Decoder<Address> = (value) => new Address(address(value));

/** A member decoded when present (errors name it, as field() words them), without a wrapper made per member and call. */
const opt = <T>(o: Record<string, unknown>, name: string, decode: Decoder<T>): T | undefined => {
  const value = o[name];
  if (value === undefined || value === null || !Object.hasOwn(o, name)) return undefined;
  try {
    return decode(value);
  } catch (err) {
    if (err instanceof InvalidArgument) throw new InvalidArgument(`${JSON.stringify(name)}: ${err.message}`);
    throw err;
  }
};

/** An access list: `[{ address, storageKeys: [32-byte hex] }]`. */
export const accessListParam: Decoder<AccessListBytes> = arrayOf((entry) => {
  const o = object(entry, 'an access list entry { address, storageKeys }');
  return [field('address', address)(o.address), field('storageKeys', arrayOf(hash32))(o.storageKeys ?? [])] as [Uint8Array, Uint8Array[]];
}, 'an access list');

/** quantity bytes: minimal big-endian, empty for zero (as RLP fields carry them). */
const quantityBytes = (n: bigint): Uint8Array => {
  if (n === 0n) return new Uint8Array();
  const hex = n.toString(16);
  return Uint8Array.from(Buffer.from(hex.length % 2 === 0 ? hex : '0' + hex, 'hex'));
};

/** An EIP-7702 authorization list: `[{ chainId, address, nonce, yParity, r, s }]`, as @ethereumjs carries it (bytes). */
export const authorizationListParam: Decoder<EOACode7702AuthorizationListBytes> = arrayOf((entry) => {
  const o = object(entry, 'an authorization { chainId, address, nonce, yParity, r, s }');
  const q = (name: string) => quantityBytes(field(name, quantity)(o[name] ?? '0x0'));
  return [q('chainId'), field('address', address)(o.address), q('nonce'), q('yParity'), q('r'), q('s')] as EOACode7702AuthorizationListBytes[number];
});

/**
 * The call object of eth_call / eth_estimateGas / eth_createAccessList (SPEC 4.3). `from` may be
 * omitted (the zero address, as real nodes do); `input` is accepted as geth accepts it, and must equal
 * `data` when both are given. Unknown members are ignored, as geth ignores them.
 */
export const callObject: Decoder<CallRequest> = (value) => {
  const o = object(value, 'a call object');
  const data = opt(o, 'data', hexData);
  const input = opt(o, 'input', hexData);
  if (data !== undefined && input !== undefined && Buffer.compare(Buffer.from(data), Buffer.from(input)) !== 0) {
    throw new InvalidArgument('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
  }
  const req: CallRequest = {
    from: opt(o, 'from', addressParam),
    to: opt(o, 'to', addressParam),
    gas: opt(o, 'gas', uint64),
    gasPrice: opt(o, 'gasPrice', quantity),
    maxFeePerGas: opt(o, 'maxFeePerGas', quantity),
    maxPriorityFeePerGas: opt(o, 'maxPriorityFeePerGas', quantity),
    value: opt(o, 'value', quantity),
    nonce: opt(o, 'nonce', uint64),
    data: input ?? data,
    accessList: opt(o, 'accessList', accessListParam),
    authorizationList: opt(o, 'authorizationList', authorizationListParam),
  };
  if (req.gasPrice !== undefined && (req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined)) {
    throw new InvalidArgument('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  if (req.maxFeePerGas !== undefined && req.maxPriorityFeePerGas !== undefined && req.maxPriorityFeePerGas > req.maxFeePerGas) {
    throw new InvalidArgument(`maxFeePerGas (${req.maxFeePerGas}) < maxPriorityFeePerGas (${req.maxPriorityFeePerGas})`);
  }
  return req;
};

/**
 * A storage position: a quantity (`0x0`, `0x1a`) or hex of at most 32 bytes (`0x00...05`), as geth's
 * decodeHash reads it. Keeps how many bytes were written, for geth's echo of the key in eth_getProof.
 */
export const storageSlot: Decoder<StorageKey> = (value) => {
  if (typeof value !== 'string') throw new InvalidArgument(`expected a storage slot as a hex string, got ${describe(value)}`);
  if (!/^0[xX]/.test(value)) throw new InvalidArgument('hex string without 0x prefix');
  let body = value.slice(2);
  if (body.length === 0) throw new InvalidArgument('empty hex string is not a storage slot');
  if (!/^[0-9a-fA-F]*$/.test(body)) throw new InvalidArgument(`invalid hex string ${JSON.stringify(value.length > 80 ? value.slice(0, 77) + '...' : value)}`);
  if (body.length % 2 === 1) body = '0' + body;
  if (body.length > 64) throw new InvalidArgument('hex string too long, want at most 32 bytes');
  const slot = new Uint8Array(32);
  slot.set(Buffer.from(body, 'hex'), 32 - body.length / 2);
  return { slot, length: body.length / 2 };
};

/**
 * The block parameter of eth_getBlockReceipts: a hex or decimal integer (JSON number or string), a tag,
 * a block hash, or an EIP-1898 object.
 */
export const receiptsBlockParam: Decoder<BlockSelector> = (value) => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new InvalidArgument(`expected a non-negative block number, got ${describe(value)}`);
    return { number: BigInt(value) };
  }
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) {
    const n = BigInt(value);
    if (n >> 64n !== 0n) throw new InvalidArgument('block number > 64 bits');
    return { number: n };
  }
  return blockNumberOrHash(value);
};

/** The filter object of eth_getLogs. */
export interface LogQuery {
  readonly filter: LogFilter;
  /** Either a block hash, or a range (each end a number or tag; absent means latest). */
  readonly blockHash?: Uint8Array;
  readonly fromBlock?: BlockRef;
  readonly toBlock?: BlockRef;
}

const MAX_TOPICS = 4;

/** One topic position: null (any), a 32-byte topic, or an array of topics (any of them; null inside is any). */
const topicPosition: Decoder<Uint8Array[] | undefined> = (value) => {
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    const topics = value.map((t, i) => (t === null ? null : field(String(i), hash32)(t)));
    return topics.includes(null) ? undefined : (topics as Uint8Array[]);
  }
  return [hash32(value)];
};

export const logFilterParam: Decoder<LogQuery> = (value) => {
  const o = object(value, 'a filter object');
  const blockHash = opt(o, 'blockHash', hash32);
  const fromBlock = opt(o, 'fromBlock', blockNumberOrTag);
  const toBlock = opt(o, 'toBlock', blockNumberOrTag);
  if (blockHash !== undefined && (fromBlock !== undefined || toBlock !== undefined)) {
    throw new InvalidArgument('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
  }
  let addresses: Uint8Array[] = [];
  if (o.address !== undefined && o.address !== null) {
    addresses = Array.isArray(o.address) ? field('address', arrayOf(address))(o.address) : [field('address', address)(o.address)];
  }
  let topics: (Uint8Array[] | undefined)[] = [];
  if (o.topics !== undefined && o.topics !== null) {
    if (!Array.isArray(o.topics)) throw new InvalidArgument(`"topics": expected an array, got ${describe(o.topics)}`);
    if (o.topics.length > MAX_TOPICS) throw new InvalidArgument('exceed max topics');
    topics = o.topics.map((t, i) => field(`topics[${i}]`, topicPosition)(t));
  }
  return { filter: { addresses, topics }, blockHash, fromBlock, toBlock };
};

/** The block a selector names; undefined when there is none. `pending` is the pending block. */
/** What selectors resolve against: the node (its `pending` is the pending block). */
export interface BlockSource {
  head(): MinedBlock;
  blockByHash(hash: Uint8Array): MinedBlock | undefined;
  resolveBlock(id: BlockId): Promise<MinedBlock | undefined>;
}

export async function findBlock(chain: BlockSource, sel: BlockSelector): Promise<MinedBlock | undefined> {
  if ('hash' in sel) return chain.blockByHash(sel.hash);
  return chain.resolveBlock('tag' in sel ? sel.tag : sel.number);
}

/**
 * The block of a state read (eth_getBalance, eth_call, ...): an error when there is none, as geth
 * answers `header not found` (or `header for hash not found`); omitted, latest (as geth).
 */
export async function stateBlock(chain: BlockSource, sel: BlockSelector | undefined): Promise<MinedBlock> {
  // geth's default for an omitted block parameter: latest.
  if (sel === undefined) return chain.head();
  const block = await findBlock(chain, sel);
  if (block === undefined) throw new ResourceNotFound('hash' in sel ? 'header for hash not found' : 'header not found');
  return block;
}

/** Whether a selector means the pending block. */
export const isPending = (sel: BlockSelector): boolean => 'tag' in sel && sel.tag === 'pending';
