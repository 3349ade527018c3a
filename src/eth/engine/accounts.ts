/** Dev accounts from a BIP-39 mnemonic at m/44'/60'/0'/0/i, as anvil and hardhat derive them. */
import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Address, publicToAddress } from '@ethereumjs/util';
import type { DevAccount } from './types.js';

/** Derives `count` accounts; throws for a mnemonic that is not valid English BIP-39. */
export function deriveDevAccounts(mnemonic: string, count: number): DevAccount[] {
  const words = mnemonic.trim().split(/\s+/).join(' ');
  if (!validateMnemonic(words, wordlist)) throw new Error('accounts.mnemonic: not a valid BIP-39 English mnemonic');
  // BIP-39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"), with node's native PBKDF2.
  const seed = pbkdf2Sync(Buffer.from(words.normalize('NFKD'), 'utf8'), Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512');
  const root = HDKey.fromMasterSeed(new Uint8Array(seed));
  // Derive the shared prefix once; each account is then one non-hardened step.
  const base = root.derive("m/44'/60'/0'/0");
  const accounts: DevAccount[] = [];
  for (let i = 0; i < count; i++) {
    const child = base.deriveChild(i);
    if (child.privateKey === null || child.publicKey === null) throw new Error(`cannot derive dev account ${i}`);
    const uncompressed = secp256k1.Point.fromBytes(child.publicKey).toBytes(false).slice(1);
    accounts.push({ address: new Address(publicToAddress(uncompressed)), privateKey: child.privateKey });
  }
  return accounts;
}
