/** Native secp256k1 (recovery, signing, key derivation) agrees with @noble, @ethereumjs and viem. */
import { createLegacyTx, createFeeMarket1559Tx } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, bytesToHex, ecrecover, hexToBytes } from '@ethereumjs/util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { nativeEcrecover, nativeEcsign, nativeSecp256k1 } from '../../../../src/eth/engine/exec/crypto.js';
import { seedCommon } from '../../../../src/eth/engine/exec/common.js';
import { deriveDevAccounts } from '../../../../src/eth/engine/build/accounts.js';

describe('native secp256k1', () => {
  it('loads from the bundled prebuilds', () => {
    expect(nativeSecp256k1()).toBe(true);
  });

  it('recovers the same public keys as @noble, with and without EIP-155', () => {
    for (let i = 1; i <= 20; i++) {
      const key = keccak_256(new Uint8Array([i]));
      const msg = keccak_256(new Uint8Array([i, i]));
      const sig = secp256k1.Signature.fromBytes(secp256k1.sign(msg, key, { format: 'recovered', prehash: false }), 'recovered');
      const r = bigIntToUnpaddedBytes(sig.r);
      const s = bigIntToUnpaddedBytes(sig.s);
      const v = BigInt(sig.recovery!) + 27n;
      expect(nativeEcrecover!(msg, v, r, s)).toEqual(ecrecover(msg, v, r, s));
      const v155 = BigInt(sig.recovery!) + 35n + 2n * 5n;
      expect(nativeEcrecover!(msg, v155, r, s, 5n)).toEqual(ecrecover(msg, v155, r, s, 5n));
    }
  });

  it('rejects what @noble rejects: bad v, zero r', () => {
    const msg = keccak_256(new Uint8Array([1]));
    const one = new Uint8Array([1]);
    expect(() => nativeEcrecover!(msg, 29n, one, one)).toThrow();
    expect(() => nativeEcrecover!(msg, 27n, new Uint8Array(), one)).toThrow();
  });

  it('signs exactly as @noble (RFC 6979), so seeded chains do not depend on the binding', () => {
    const key = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    for (let i = 0; i < 10; i++) {
      const msg = keccak_256(new Uint8Array([i]));
      expect(nativeEcsign!(msg, key, { format: 'recovered', prehash: false })).toEqual(secp256k1.sign(msg, key, { format: 'recovered', prehash: false }));
    }
  });

  it('is what transactions on a seed Common sign and recover with', () => {
    const common = seedCommon(1, 'x', 'osaka');
    const key = hexToBytes('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    const tx = createFeeMarket1559Tx(
      { chainId: 1n, nonce: 3n, gasLimit: 21000n, maxFeePerGas: 10n ** 10n, to: '0x00000000000000000000000000000000000000b1' },
      { common },
    ).sign(key);
    const legacy = createLegacyTx({ nonce: 3n, gasLimit: 21000n, gasPrice: 10n ** 10n, to: '0x00000000000000000000000000000000000000b1' }, { common }).sign(
      key,
    );
    expect(tx.getSenderAddress().toString()).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    expect(legacy.getSenderAddress().toString()).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    expect([37n, 38n]).toContain(legacy.v); // EIP-155 on chain 1
  });
});

describe('dev account derivation', () => {
  it("matches viem's BIP-32/39 accounts (m/44'/60'/0'/0/i) for any mnemonic", async () => {
    const { mnemonicToAccount } = await import('viem/accounts');
    const mnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    const ours = deriveDevAccounts(mnemonic, 25);
    for (const i of [0, 1, 7, 24]) {
      const theirs = mnemonicToAccount(mnemonic, { addressIndex: i });
      expect(ours[i]!.address.toString()).toBe(theirs.address.toLowerCase());
      expect(bytesToHex(ours[i]!.privateKey)).toBe(bytesToHex(theirs.getHdKey().privateKey!));
    }
  });
});
