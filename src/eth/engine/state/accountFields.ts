/**
 * Account helpers shared by devgate's own state managers (state/callState.ts for calls, simulate/simState.ts for
 * eth_simulateV1): a field-for-field copy, and the StateManagerInterface's modifyAccountFields as one function.
 */
import { Account } from '@ethereumjs/util';

/** The fields modifyAccountFields may set. */
export type AccountFieldChanges = Partial<Pick<Account, 'nonce' | 'balance' | 'storageRoot' | 'codeHash' | 'codeSize'>>;

/** A copy of an account (the EVM changes the accounts it is given in place). */
export function copyAccount(a: Account): Account {
  const f = a as unknown as {
    _nonce: bigint;
    _balance: bigint;
    _storageRoot: Uint8Array;
    _codeHash: Uint8Array;
    _codeSize: number | null;
    _version: number | null;
  };
  return new Account(f._nonce, f._balance, f._storageRoot, f._codeHash, f._codeSize, f._version);
}

/** `account` (changed in place and given back) with the fields `changes` sets. */
export function withFields(account: Account, changes: AccountFieldChanges): Account {
  if (changes.nonce !== undefined) account.nonce = changes.nonce;
  if (changes.balance !== undefined) account.balance = changes.balance;
  if (changes.storageRoot !== undefined) account.storageRoot = changes.storageRoot;
  if (changes.codeHash !== undefined) account.codeHash = changes.codeHash;
  if (changes.codeSize !== undefined) account.codeSize = changes.codeSize;
  return account;
}
