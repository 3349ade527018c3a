/** Dev accounts from a BIP-39 mnemonic at m/44'/60'/0'/0/i, as anvil and hardhat derive them. */
import { createHmac, pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Address, publicToAddress } from '@ethereumjs/util';
import { nativeKeys, type NativeKeys } from '../exec/crypto.js';
import type { DevAccount } from '../chain/types.js';

const HARDENED = 0x80000000;

/** Derives `count` accounts; throws for a mnemonic that is not valid English BIP-39. */
export function deriveDevAccounts(mnemonic: string, count: number): DevAccount[] {
  const words = mnemonic.trim().split(/\s+/).join(' ');
  if (!validateMnemonic(words, wordlist)) throw new Error('accounts.mnemonic: not a valid BIP-39 English mnemonic');
  // BIP-39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"), with node's native PBKDF2.
  const seed = new Uint8Array(pbkdf2Sync(Buffer.from(words.normalize('NFKD'), 'utf8'), Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512'));
  const keys = nativeKeys();
  return keys === undefined ? deriveWithScure(seed, count) : deriveNative(seed, count, keys);
}

function account(privateKey: Uint8Array, uncompressedPublicKey: Uint8Array): DevAccount {
  return { address: new Address(publicToAddress(uncompressedPublicKey.slice(1))), privateKey };
}

/** @scure/bip32 (pure JS): the shared prefix once, then one non-hardened step per account. */
function deriveWithScure(seed: Uint8Array, count: number): DevAccount[] {
  const base = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0");
  return Array.from({ length: count }, (_, i) => {
    const child = base.deriveChild(i);
    if (child.privateKey === null || child.publicKey === null) throw new Error(`cannot derive dev account ${i}`);
    return account(child.privateKey, secp256k1.Point.fromBytes(child.publicKey).toBytes(false));
  });
}

/** BIP-32 private derivation (HMAC-SHA512 from node, key arithmetic from libsecp256k1). */
function deriveNative(seed: Uint8Array, count: number, keys: NativeKeys): DevAccount[] {
  const hmac = (key: Uint8Array, data: Uint8Array) => new Uint8Array(createHmac('sha512', key).update(data).digest());
  const master = hmac(new TextEncoder().encode('Bitcoin seed'), seed);
  type Node = { key: Uint8Array; chainCode: Uint8Array };
  const child = (parent: Node, index: number): Node => {
    const data = new Uint8Array(37);
    if (index >= HARDENED) data.set(parent.key, 1);
    else data.set(keys.publicKey(parent.key, true), 0);
    new DataView(data.buffer).setUint32(33, index >>> 0);
    const I = hmac(parent.chainCode, data);
    return { key: keys.addPrivate(parent.key, I.slice(0, 32)), chainCode: I.slice(32) };
  };
  let base: Node = { key: master.slice(0, 32), chainCode: master.slice(32) };
  for (const index of [44 + HARDENED, 60 + HARDENED, HARDENED, 0]) base = child(base, index);
  return Array.from({ length: count }, (_, i) => {
    const { key } = child(base, i);
    return account(key, keys.publicKey(key, false));
  });
}
