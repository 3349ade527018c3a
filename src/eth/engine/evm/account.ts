/**
 * Account's own fields (@ethereumjs/util's `account.js`: `_nonce`, `_balance`, `_storageRoot`, `_codeHash`,
 * `_codeSize`, `_version`). Its getters throw on a field a partial account leaves null, so a copy or a comparison
 * that must keep those nulls reads the fields themselves.
 */
import { Account, equalsBytes } from '@ethereumjs/util';

interface AccountFields {
  _nonce: bigint;
  _balance: bigint;
  _storageRoot: Uint8Array;
  _codeHash: Uint8Array;
  _codeSize: number | null;
  _version: number | null;
}

/** A copy of an account, field for field (the EVM changes the accounts it is given in place). */
export function copyAccount(a: Account): Account {
  const f = a as unknown as AccountFields;
  return new Account(f._nonce, f._balance, f._storageRoot, f._codeHash, f._codeSize, f._version);
}

/** Whether `b` holds what `a` holds, field for field. */
export function sameAccount(a: Account | null, b: Account): boolean {
  if (a === null) return false;
  const x = a as unknown as AccountFields;
  const y = b as unknown as AccountFields;
  return (
    x._nonce === y._nonce &&
    x._balance === y._balance &&
    x._codeSize === y._codeSize &&
    x._version === y._version &&
    equalsBytes(x._storageRoot, y._storageRoot) &&
    equalsBytes(x._codeHash, y._codeHash)
  );
}

/** Bytes of a non-negative bigint, big-endian without leading zeros (`bigIntToUnpaddedBytes`: none for 0). */
function unpaddedBytes(n: bigint): Uint8Array {
  let length = 0;
  for (let m = n; m > 0n; m >>= 8n) length++;
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--, n >>= 8n) out[i] = Number(n & 0xffn);
  return out;
}

/** An RLP string item's size for `bytes` (one byte under 0x80 is itself; these are at most 32 bytes long). */
const itemSize = (bytes: Uint8Array): number => (bytes.length === 1 && bytes[0]! < 0x80 ? 1 : 1 + bytes.length);

function writeItem(out: Uint8Array, pos: number, bytes: Uint8Array): number {
  if (bytes.length === 1 && bytes[0]! < 0x80) {
    out[pos] = bytes[0]!;
    return pos + 1;
  }
  out[pos] = 0x80 + bytes.length;
  out.set(bytes, pos + 1);
  return pos + 1 + bytes.length;
}

/**
 * `account.serialize()` written into one buffer, and the account `createAccountFromRLP` would read back from it (its
 * roots are views into the RLP, which the caches never change): the head state's caches hold an account as its RLP
 * and read it decoded (state/headState.ts). RLP.encode makes an array per item and per concatenation, and
 * `bigIntToUnpaddedBytes` goes through hex; a send puts each account it changes, and a block's flush puts each account
 * whose storage changed. A partial account (a null field) or one whose roots are not 32 bytes is serialized stock.
 */
export function serializeAccount(account: Account): { rlp: Uint8Array; readBack: Account | undefined } {
  const f = account as unknown as AccountFields;
  if (f._nonce === null || f._balance === null || f._storageRoot?.length !== 32 || f._codeHash?.length !== 32) {
    return { rlp: account.serialize(), readBack: undefined };
  }
  const nonce = unpaddedBytes(f._nonce);
  const balance = unpaddedBytes(f._balance);
  const payload = itemSize(nonce) + itemSize(balance) + 66;
  // 66 bytes of roots alone: the payload is always past 55 bytes (RLP's long list form), and under 256.
  const rlp = new Uint8Array(2 + payload);
  rlp[0] = 0xf8;
  rlp[1] = payload;
  let pos = writeItem(rlp, 2, nonce);
  pos = writeItem(rlp, pos, balance);
  pos = writeItem(rlp, pos, f._storageRoot);
  writeItem(rlp, pos, f._codeHash);
  const readBack = new Account(f._nonce, f._balance, rlp.subarray(rlp.length - 65, rlp.length - 33), rlp.subarray(rlp.length - 32));
  return { rlp, readBack };
}
