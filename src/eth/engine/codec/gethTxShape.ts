/**
 * A raw transaction's RLP read the way go-ethereum's rlp package decodes it into its transaction structs
 * (core/types: LegacyTx, AccessListTx, DynamicFeeTx, SetCodeTx via rlp.DecodeBytes; Transaction.UnmarshalBinary),
 * so that a malformed one is refused with geth's own text (`rlp: too few elements for types.DynamicFeeTx`,
 * `rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.LegacyTx).Nonce`, ...)
 * rather than with @ethereumjs's. Only the envelope and the scalar fields are checked here; the access list and
 * authorization entries are left to @ethereumjs. Answers the top-level fields as views of the input.
 */

/** A decoding error with go-ethereum's text (rlp/decode.go, core/types/transaction.go). */
export class GethDecodeError extends Error {
  override name = 'GethDecodeError';
}

type Kind = 'uint64' | 'big' | 'u256' | 'addrOrNil' | 'addr' | 'bytes' | 'list';

interface Shape {
  readonly goType: string;
  readonly fields: readonly (readonly [string, Kind, string?])[];
}

const SIG = [
  ['V', 'big'],
  ['R', 'big'],
  ['S', 'big'],
] as const;
const SIG256 = [
  ['V', 'u256'],
  ['R', 'u256'],
  ['S', 'u256'],
] as const;

/** geth's transaction structs, field by field, with the Go type each field decodes into. */
const SHAPES: Record<number, Shape> = {
  0: {
    goType: 'types.LegacyTx',
    fields: [['Nonce', 'uint64'], ['GasPrice', 'big'], ['Gas', 'uint64'], ['To', 'addrOrNil'], ['Value', 'big'], ['Data', 'bytes'], ...SIG],
  },
  1: {
    goType: 'types.AccessListTx',
    fields: [
      ['ChainID', 'big'],
      ['Nonce', 'uint64'],
      ['GasPrice', 'big'],
      ['Gas', 'uint64'],
      ['To', 'addrOrNil'],
      ['Value', 'big'],
      ['Data', 'bytes'],
      ['AccessList', 'list', 'types.AccessList'],
      ...SIG,
    ],
  },
  2: {
    goType: 'types.DynamicFeeTx',
    fields: [
      ['ChainID', 'big'],
      ['Nonce', 'uint64'],
      ['GasTipCap', 'big'],
      ['GasFeeCap', 'big'],
      ['Gas', 'uint64'],
      ['To', 'addrOrNil'],
      ['Value', 'big'],
      ['Data', 'bytes'],
      ['AccessList', 'list', 'types.AccessList'],
      ...SIG,
    ],
  },
  4: {
    goType: 'types.SetCodeTx',
    fields: [
      ['ChainID', 'u256'],
      ['Nonce', 'uint64'],
      ['GasTipCap', 'u256'],
      ['GasFeeCap', 'u256'],
      ['Gas', 'uint64'],
      ['To', 'addr'],
      ['Value', 'u256'],
      ['Data', 'bytes'],
      ['AccessList', 'list', 'types.AccessList'],
      ['AuthList', 'list', '[]types.SetCodeAuthorization'],
      ...SIG256,
    ],
  },
};

const GO_TYPE: Record<Kind, string> = {
  uint64: 'uint64',
  big: '*big.Int',
  u256: '*uint256.Int',
  addrOrNil: 'common.Address',
  addr: 'common.Address',
  bytes: '[]uint8',
  list: '',
};

const TOO_LARGE = 'rlp: value size exceeds available input length';

interface Item {
  readonly isList: boolean;
  readonly start: number;
  readonly end: number;
  /** A single byte below 0x80, its own encoding. */
  readonly isByte: boolean;
}

/**
 * An item header at `at`, in an enclosing span ending at `limit`, as geth's Stream.Kind reads it. `goType` names the Go
 * type in an error; it is a function so that nothing is built for it unless an error is thrown (no closures or
 * strings per field on the path every transaction takes).
 */
function readItem(b: Uint8Array, at: number, limit: number, outer: boolean, goType: TypeName): Item {
  const prefix = b[at]!;
  if (prefix < 0x80) return { isList: false, start: at, end: at + 1, isByte: true };
  let start: number;
  let length: number;
  let isList: boolean;
  if (prefix < 0xb8 || (prefix >= 0xc0 && prefix < 0xf8)) {
    isList = prefix >= 0xc0;
    start = at + 1;
    length = prefix - (isList ? 0xc0 : 0x80);
  } else {
    isList = prefix >= 0xf8;
    const n = prefix - (isList ? 0xf7 : 0xb7);
    if (at + 1 + n > limit) throw tooLarge(outer);
    if (b[at + 1] === 0) throw canonSize(goType);
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + b[at + 1 + i]!;
    if (length < 56) throw canonSize(goType);
    start = at + 1 + n;
  }
  if (start + length > limit) throw tooLarge(outer);
  return { isList, start, end: start + length, isByte: false };
}

/** The Go type an item decodes into, for an error's text: a struct, or a field of one. */
type TypeName = string | { readonly shape: Shape; readonly field: number };

const typeText = (t: TypeName): string => {
  if (typeof t === 'string') return t;
  const [name, kind, listType] = t.shape.fields[t.field]!;
  return `${kind === 'list' ? listType : GO_TYPE[kind]}, decoding into (${t.shape.goType}).${name}`;
};
const tooLarge = (outer: boolean) => new GethDecodeError(outer ? TOO_LARGE : 'rlp: element is larger than containing list');
const canonSize = (t: TypeName) => new GethDecodeError(`rlp: non-canonical size information for ${typeText(t)}`);

/** Checks one field's item as geth's decoder for its Go type does; throws geth's text. */
function checkField(b: Uint8Array, item: Item, kind: Kind, listType: string | undefined, struct: string, name: string): void {
  if (kind === 'list') {
    if (!item.isList) throw fieldError('expected input list', kind, listType, struct, name);
    return;
  }
  if (item.isList) throw fieldError('expected input string or byte', kind, listType, struct, name);
  const size = item.end - item.start;
  if (kind === 'bytes') {
    if (!item.isByte && size === 1 && b[item.start]! < 0x80) throw fieldError('non-canonical size information', kind, listType, struct, name);
    return;
  }
  if (kind === 'addr' || kind === 'addrOrNil') {
    if (kind === 'addrOrNil' && !item.isByte && size === 0) return;
    const got = item.isByte ? 1 : size;
    if (got < 20) throw fieldError('input string too short', kind, listType, struct, name);
    if (got > 20) throw fieldError('input string too long', kind, listType, struct, name);
    return;
  }
  // Integers: uint64, *big.Int, *uint256.Int.
  if (item.isByte) {
    if (b[item.start] === 0) throw fieldError('non-canonical integer (leading zero bytes)', kind, listType, struct, name);
    return;
  }
  if (kind === 'uint64' && size > 8) throw fieldError('input string too long', kind, listType, struct, name);
  if (kind === 'u256' && size > 32) throw new GethDecodeError('rlp: value too large for uint256');
  if (size === 1 && b[item.start]! < 0x80) throw fieldError('non-canonical size information', kind, listType, struct, name);
  if (size > 0 && b[item.start] === 0) throw fieldError('non-canonical integer (leading zero bytes)', kind, listType, struct, name);
}

/** geth's text for a field that does not decode into its Go type. */
function fieldError(msg: string, kind: Kind, listType: string | undefined, struct: string, name: string): GethDecodeError {
  return new GethDecodeError(`rlp: ${msg} for ${kind === 'list' ? listType! : GO_TYPE[kind]}, decoding into (${struct}).${name}`);
}

/**
 * The top-level fields of a raw legacy (first byte 0x80 and up) or typed (0x01, 0x02, 0x04) transaction, as views of
 * `raw`, after the checks geth's decoding makes; GethDecodeError with geth's text otherwise. A blob transaction (0x03)
 * is not read here (its network form wraps the transaction with its sidecar): undefined.
 */
export function gethTxFields(raw: Uint8Array): Uint8Array[] | undefined {
  if (raw.length === 0 || (raw[0]! <= 0x7f && raw.length <= 1)) throw new GethDecodeError('typed transaction too short');
  const type = raw[0]! > 0x7f ? 0 : raw[0]!;
  if (type === 3) return undefined;
  const shape = SHAPES[type];
  if (shape === undefined) throw new GethDecodeError('transaction type not supported');
  const body = type === 0 ? 0 : 1;
  const list = readItem(raw, body, raw.length, true, shape.goType);
  if (!list.isList) throw new GethDecodeError(`rlp: expected input list for ${shape.goType}`);
  const fields: Uint8Array[] = [];
  let at = list.start;
  for (let i = 0; i < shape.fields.length; i++) {
    if (at >= list.end) throw new GethDecodeError(`rlp: too few elements for ${shape.goType}`);
    const [name, kind, listType] = shape.fields[i]!;
    const item = readItem(raw, at, list.end, false, { shape, field: i });
    checkField(raw, item, kind, listType, shape.goType, name);
    fields.push(raw.subarray(item.start, item.end));
    at = item.end;
  }
  if (at < list.end) throw new GethDecodeError(`rlp: input list has too many elements for ${shape.goType}`);
  if (list.end < raw.length) throw new GethDecodeError('rlp: input contains more than one value');
  return fields;
}

/** The fields of a blob transaction's network form (or its canonical form) when they are a list of scalars; undefined if not. */
export function blobTxFields(raw: Uint8Array): Uint8Array[] | undefined {
  try {
    const outer = readItem(raw, 1, raw.length, true, 'types.BlobTx');
    if (!outer.isList || outer.start >= outer.end) return undefined;
    const first = readItem(raw, outer.start, outer.end, false, 'types.BlobTx');
    const list = first.isList ? first : outer;
    const fields: Uint8Array[] = [];
    for (let at = list.start; at < list.end; ) {
      const item = readItem(raw, at, list.end, false, 'types.BlobTx');
      fields.push(item.isList ? new Uint8Array(0) : raw.subarray(item.start, item.end));
      at = item.end;
    }
    return fields;
  } catch {
    return undefined;
  }
}
