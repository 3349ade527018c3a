/**
 * A block's fields read straight out of its RLP: the header's, each transaction's, the uncles' hashes
 * and the withdrawals, as views of the bytes (no copies) and without building @ethereumjs objects or
 * validating anything again. For blocks this chain built and saved (chainImage.ts), whose bytes were
 * checked when they were made: formatting a restored block's transaction or header this way costs a
 * fraction of createTxFromRLP / createBlockHeaderFromRLP (a Common, validation, hashing).
 */
import { Address, bytesToBigInt, bytesToHex, type EOACode7702AuthorizationListBytes } from '@ethereumjs/util';
import { listSpans, rlpItem, rlpViews, type Nested } from '../codec/rlpReader.js';
import type { HeaderFields, RawBlockFields, TxFields, TxTypeAndTo, WithdrawalFields } from './types.js';
import { plainHex } from '../../../hex.js';

/** A big-endian unsigned integer field as a bigint, as @ethereumjs's bytesToBigInt (which goes through hex for any length). */
export function big(b: Nested | undefined): bigint {
  if (!(b instanceof Uint8Array)) return bytesToBigInt(b as unknown as Uint8Array); // throws as before
  const n = b.length;
  if (n <= 6) {
    let x = 0;
    for (let i = 0; i < n; i++) x = x * 256 + b[i]!;
    return BigInt(x);
  }
  return BigInt('0x' + plainHex(b.subarray(0, n)));
}
const bytes = (b: Nested | undefined) => b as Uint8Array;
const optional = <T>(b: Nested | undefined, read: (b: Nested) => T): T | undefined => (b === undefined ? undefined : read(b));
/** v, r, s as @ethereumjs sets them: an empty one is undefined, except a typed tx's v (y parity 0 is empty). */
const signature = (v: Nested | undefined, r: Nested | undefined, s: Nested | undefined, typed = true) => ({
  v: typed || (v as Uint8Array).length > 0 ? big(v) : undefined,
  r: (r as Uint8Array).length > 0 ? big(r) : undefined,
  s: (s as Uint8Array).length > 0 ? big(s) : undefined,
});
const to = (b: Nested | undefined) => ((b as Uint8Array).length > 0 ? new Address(b as Uint8Array) : undefined);
const accessList = (b: Nested | undefined) => b as [Uint8Array, Uint8Array[]][];

/** A header's fields from its RLP list (`values`), as BlockHeader names them; later hardforks' fields only where present. */
export function headerFields(values: Nested[]): HeaderFields {
  const [
    parentHash,
    uncleHash,
    coinbase,
    stateRoot,
    transactionsTrie,
    receiptTrie,
    logsBloom,
    difficulty,
    number,
    gasLimit,
    gasUsed,
    timestamp,
    extraData,
    mixHash,
    nonce,
    baseFee,
    withdrawalsRoot,
    blobGasUsed,
    excessBlobGas,
    beaconRoot,
    requestsHash,
  ] = values;
  if (values.length < 15) throw new RangeError('a block header has too few fields');
  return {
    parentHash: bytes(parentHash),
    uncleHash: bytes(uncleHash),
    coinbase: new Address(bytes(coinbase)),
    stateRoot: bytes(stateRoot),
    transactionsTrie: bytes(transactionsTrie),
    receiptTrie: bytes(receiptTrie),
    logsBloom: bytes(logsBloom),
    difficulty: big(difficulty),
    number: big(number),
    gasLimit: big(gasLimit),
    gasUsed: big(gasUsed),
    timestamp: big(timestamp),
    extraData: bytes(extraData),
    mixHash: bytes(mixHash),
    nonce: bytes(nonce),
    baseFeePerGas: optional(baseFee, big),
    withdrawalsRoot: optional(withdrawalsRoot, bytes),
    blobGasUsed: optional(blobGasUsed, big),
    excessBlobGas: optional(excessBlobGas, big),
    parentBeaconBlockRoot: optional(beaconRoot, bytes),
    requestsHash: optional(requestsHash, bytes),
  };
}

/**
 * A transaction's fields from its bytes as a block carries them: a legacy tx's RLP list, or a typed
 * tx's type byte and RLP list. The same values as the @ethereumjs transaction of those bytes.
 */
export function txFields(b: Uint8Array): TxFields {
  const type = b[0]! >= 0xc0 ? 0 : b[0]!;
  const f = rlpViews(b, type === 0 ? 0 : 1).value as Nested[];
  if (type === 0) {
    const [nonce, gasPrice, gasLimit, dest, value, data, v, r, s] = f;
    return {
      type,
      nonce: big(nonce),
      gasPrice: big(gasPrice),
      gasLimit: big(gasLimit),
      to: to(dest),
      value: big(value),
      data: bytes(data),
      ...signature(v, r, s, false),
    };
  }
  if (type === 1) {
    const [chainId, nonce, gasPrice, gasLimit, dest, value, data, list, v, r, s] = f;
    return {
      type,
      chainId: big(chainId),
      nonce: big(nonce),
      gasPrice: big(gasPrice),
      gasLimit: big(gasLimit),
      to: to(dest),
      value: big(value),
      data: bytes(data),
      accessList: accessList(list),
      ...signature(v, r, s),
    };
  }
  const [chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, dest, value, data, list] = f;
  const fees = {
    chainId: big(chainId),
    nonce: big(nonce),
    maxPriorityFeePerGas: big(maxPriorityFeePerGas),
    maxFeePerGas: big(maxFeePerGas),
    gasLimit: big(gasLimit),
    to: to(dest),
    value: big(value),
    data: bytes(data),
    accessList: accessList(list),
  };
  if (type === 2) return { type, ...fees, ...signature(f[9], f[10], f[11]) };
  if (type === 3)
    return {
      type,
      ...fees,
      maxFeePerBlobGas: big(f[9]),
      blobVersionedHashes: (f[10] as Uint8Array[]).map((h) => bytesToHex(h)),
      ...signature(f[11], f[12], f[13]),
    };
  if (type === 4) return { type, ...fees, authorizationList: f[9] as EOACode7702AuthorizationListBytes, ...signature(f[10], f[11], f[12]) };
  throw new RangeError(`transaction type ${type} is not known`);
}

/**
 * The fields of a raw block (RLP: [header, transactions, uncles, withdrawals?]) read on first use,
 * each no further than asked; `keccak` hashes the uncles' headers.
 */
export function rawBlockFields(raw: Uint8Array, keccak: (b: Uint8Array) => Uint8Array): RawBlockFields {
  const parts = listSpans(raw, 0);
  if (parts.length < 3) throw new RangeError('a block has too few parts');
  let header: HeaderFields | undefined;
  let txs: [number, number][] | undefined;
  let uncles: Uint8Array[] | undefined;
  let withdrawals: WithdrawalFields[] | null | undefined;
  /** A transaction's bytes: a legacy one's RLP list, a typed one's type byte and list (a block holds those in an RLP string). */
  const txBytes = (index: number) => {
    const span = (txs ??= listSpans(raw, parts[1]![0]))[index];
    if (span === undefined) throw new RangeError(`the block has no transaction ${index}`);
    const item = raw[span[0]]! >= 0xc0 ? { start: span[0], end: span[1] } : rlpItem(raw, span[0]);
    return raw.subarray(item.start, item.end);
  };
  return {
    size: raw.length,
    bytes: raw,
    get header() {
      return (header ??= headerFields(rlpViews(raw, parts[0]![0]).value as Nested[]));
    },
    txFields(index: number): TxFields {
      return txFields(txBytes(index));
    },
    txTypeAndTo(index: number): TxTypeAndTo {
      const b = txBytes(index);
      const type = b[0]! >= 0xc0 ? 0 : b[0]!;
      // `to` is field 3 of a legacy tx, 4 of type 1, 5 of types 2 to 4.
      const list = rlpItem(b, type === 0 ? 0 : 1);
      let at = list.start;
      for (let i = type === 0 ? 3 : type === 1 ? 4 : 5; i > 0; i--) at = rlpItem(b, at).end;
      const item = rlpItem(b, at);
      return { type, to: item.length > 0 ? new Address(b.subarray(item.start, item.end)) : undefined };
    },
    get uncleHashes() {
      return (uncles ??= listSpans(raw, parts[2]![0]).map(([start, end]) => keccak(raw.subarray(start, end))));
    },
    get withdrawals() {
      if (withdrawals === undefined) {
        const list = parts[3] === undefined ? undefined : (rlpViews(raw, parts[3][0]).value as Uint8Array[][]);
        withdrawals =
          list?.map(([index, validatorIndex, address, amount]) => ({
            index: big(index),
            validatorIndex: big(validatorIndex),
            address: new Address(address!),
            amount: big(amount),
          })) ?? null;
      }
      return withdrawals ?? undefined;
    },
  };
}
