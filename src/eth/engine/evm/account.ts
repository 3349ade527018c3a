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
