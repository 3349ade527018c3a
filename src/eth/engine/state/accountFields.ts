/**
 * The StateManagerInterface's modifyAccountFields as one function, for devgate's own state manager
 * (state/overlayState.ts; a field-for-field copy reads Account's own fields: evm/account.ts).
 */
import type { Account } from '@ethereumjs/util';

/** The fields modifyAccountFields may set. */
export type AccountFieldChanges = Partial<Pick<Account, 'nonce' | 'balance' | 'storageRoot' | 'codeHash' | 'codeSize'>>;

/** `account` (changed in place and given back) with the fields `changes` sets. */
export function withFields(account: Account, changes: AccountFieldChanges): Account {
  if (changes.nonce !== undefined) account.nonce = changes.nonce;
  if (changes.balance !== undefined) account.balance = changes.balance;
  if (changes.storageRoot !== undefined) account.storageRoot = changes.storageRoot;
  if (changes.codeHash !== undefined) account.codeHash = changes.codeHash;
  if (changes.codeSize !== undefined) account.codeSize = changes.codeSize;
  return account;
}
