/**
 * Edits of head's state without mining (anvil_setBalance, anvil_setCode, anvil_setNonce, anvil_setStorageAt and
 * their hardhat_ twins): each runs on the chain's writer through EthChain.editHead, so reads at latest and pending
 * see it at once and the next mined block commits it into its stateRoot.
 */
import { Account, type Address, setLengthLeft, unpadBytes } from '@ethereumjs/util';
import type { EthChain } from '../chain/chain.js';

/** Edits one account's fields, creating the account if it does not exist. */
function editAccount(chain: EthChain, address: Address, edit: (account: Account) => void): Promise<void> {
  return chain.writer.run(() =>
    chain.editHead(async (state) => {
      const account = (await state.getAccount(address)) ?? new Account();
      edit(account);
      await state.putAccount(address, account);
    }),
  );
}

export const setBalance = (chain: EthChain, address: Address, wei: bigint) => editAccount(chain, address, (a) => (a.balance = wei));

export const setNonce = (chain: EthChain, address: Address, nonce: bigint) => editAccount(chain, address, (a) => (a.nonce = nonce));

/** Sets the code at an address (empty code removes it); the account keeps its balance, nonce and storage. */
export function setCode(chain: EthChain, address: Address, code: Uint8Array): Promise<void> {
  return chain.writer.run(() =>
    chain.editHead(async (state) => {
      if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account());
      await state.putCode(address, code);
    }),
  );
}

/** Sets one storage slot (32-byte key) to a 32-byte value (zero deletes it). */
export function setStorageAt(chain: EthChain, address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
  return chain.writer.run(() =>
    chain.editHead(async (state) => {
      if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account());
      await state.putStorage(address, setLengthLeft(slot, 32), unpadBytes(setLengthLeft(value, 32)));
    }),
  );
}
