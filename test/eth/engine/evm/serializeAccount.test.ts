/** serializeAccount (src/eth/engine/evm/account.ts): the same bytes as Account.serialize(), and the account read back as createAccountFromRLP reads it. */
import { Account, createAccountFromRLP, createPartialAccount, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { serializeAccount } from '../../../../src/eth/engine/evm/account.js';

const root = (b: number) => new Uint8Array(32).fill(b);

describe('serializeAccount', () => {
  it('writes what Account.serialize() writes and reads back what createAccountFromRLP reads', () => {
    const numbers = [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 10n ** 18n, 2n ** 64n - 1n, 2n ** 255n, 2n ** 256n - 1n];
    for (const nonce of numbers)
      for (const balance of numbers)
        for (const [storageRoot, codeHash] of [
          [KECCAK256_RLP, KECCAK256_NULL],
          [root(0), root(0x7f)],
        ] as const) {
          const account = new Account(nonce, balance, storageRoot, codeHash);
          const { rlp, readBack } = serializeAccount(account);
          expect(rlp).toEqual(account.serialize());
          expect(readBack).toEqual(createAccountFromRLP(rlp));
        }
  });

  it('leaves a partial account to the stock serialize (which refuses a null field)', () => {
    const partial = createPartialAccount({ nonce: null, balance: 1n, storageRoot: null, codeHash: null, codeSize: null, version: null });
    expect(() => serializeAccount(partial)).toThrow();
    expect(() => partial.serialize()).toThrow();
  });
});
