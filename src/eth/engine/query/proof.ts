/**
 * eth_getProof (EIP-1186) on the state of a block, as geth answers it: an absent account has zero
 * balance and nonce and zero codeHash and storageHash (geth's GetCodeHash/GetStorageRoot of a missing
 * object); an account without storage gets an empty proof and value 0 for every key; otherwise each
 * key gets the Merkle path to its slot (a proof of absence for an empty slot).
 */
import { getMerkleStateProof, type MerkleStateManager } from '@ethereumjs/statemanager';
import { type Address, equalsBytes, hexToBytes, KECCAK256_RLP, type PrefixedHexString } from '@ethereumjs/util';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';

/** A storage key as the caller gave it: its 32-byte slot and how many bytes the caller wrote. */
export interface StorageKey {
  readonly slot: Uint8Array;
  readonly length: number;
}

export interface StorageProof {
  readonly key: StorageKey;
  readonly value: bigint;
  readonly proof: Uint8Array[];
}

export interface AccountProof {
  readonly address: Address;
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly codeHash: Uint8Array;
  readonly storageHash: Uint8Array;
  readonly accountProof: Uint8Array[];
  readonly storageProof: StorageProof[];
}

const ZERO_HASH = new Uint8Array(32);
const toBytes = (hex: string) => hexToBytes(hex as PrefixedHexString);

/**
 * The proof of an account and storage keys at the state after `block`. `committed`: against the root its header
 * carries even while head holds unmined edits (a block asked by number or hash), so the proof verifies against that
 * block's stateRoot; otherwise (a tag) against the state reads see, edits included.
 */
export async function proveAt(chain: EthChain, block: MinedBlock, address: Address, keys: readonly StorageKey[], committed = false): Promise<AccountProof> {
  const state = await chain.readStateAt(block);
  const headerRoot = (block.raw?.header ?? block.header).stateRoot;
  if (!committed || equalsBytes(chain.stateRootOf(block), headerRoot)) return prove(state, address, keys);
  const atHeader = state.shallowCopy(false);
  await atHeader.setStateRoot(headerRoot);
  return prove(atHeader, address, keys);
}

/** The proof of an account and storage keys in `state` (which it only reads). */
export async function prove(state: MerkleStateManager, address: Address, keys: readonly StorageKey[]): Promise<AccountProof> {
  const account = await state.getAccount(address);
  const raw = await getMerkleStateProof(state, address, account === undefined ? [] : keys.map((k) => k.slot));
  const accountProof = raw.accountProof.map(toBytes);
  if (account === undefined) {
    return {
      address,
      balance: 0n,
      nonce: 0n,
      codeHash: ZERO_HASH,
      storageHash: ZERO_HASH,
      accountProof,
      storageProof: keys.map((key) => ({ key, value: 0n, proof: [] })),
    };
  }
  const emptyStorage = equalsBytes(account.storageRoot, KECCAK256_RLP);
  return {
    address,
    balance: account.balance,
    nonce: account.nonce,
    codeHash: account.codeHash,
    storageHash: account.storageRoot,
    accountProof,
    storageProof: keys.map((key, i) =>
      emptyStorage ? { key, value: 0n, proof: [] } : { key, value: BigInt(raw.storageProof[i]!.value), proof: raw.storageProof[i]!.proof.map(toBytes) },
    ),
  };
}
