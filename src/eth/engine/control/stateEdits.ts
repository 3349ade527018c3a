/**
 * Edits of head's state without mining (anvil_setBalance, anvil_setCode, anvil_setNonce, anvil_setStorageAt and
 * their hardhat_ twins), as functions of the state they edit: the node runs each through EthChain.editHead on its
 * writer, so reads at latest and pending see it at once and the next mined block commits it into its stateRoot.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, type Address, setLengthLeft, unpadBytes } from '@ethereumjs/util';

/** An edit of head's state. */
export type StateEdit = (state: MerkleStateManager) => Promise<void>;

/** Edits one account's fields, creating the account if it does not exist. */
export const editAccount =
  (address: Address, edit: (account: Account) => void): StateEdit =>
  async (state) => {
    const account = (await state.getAccount(address)) ?? new Account();
    edit(account);
    await state.putAccount(address, account);
  };

export const setBalance = (address: Address, wei: bigint): StateEdit => editAccount(address, (a) => (a.balance = wei));

export const setNonce = (address: Address, nonce: bigint): StateEdit => editAccount(address, (a) => (a.nonce = nonce));

/** Sets the code at an address (empty code removes it); the account keeps its balance, nonce and storage. */
export const setCode =
  (address: Address, code: Uint8Array): StateEdit =>
  async (state) => {
    if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account());
    await state.putCode(address, code);
  };

/** Sets one storage slot (32-byte key) to a 32-byte value (zero deletes it). */
export const setStorageAt =
  (address: Address, slot: Uint8Array, value: Uint8Array): StateEdit =>
  async (state) => {
    if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account());
    await state.putStorage(address, setLengthLeft(slot, 32), unpadBytes(setLengthLeft(value, 32)));
  };
