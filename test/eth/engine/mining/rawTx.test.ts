/** decodeRawTransaction (src/eth/engine/mining/rawTx.ts): a decoded raw transaction serializes once, frozen as @ethereumjs freezes it. */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createFeeMarket1559Tx, createLegacyTx, paramsTx } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { decodeRawTransaction } from '../../../../src/eth/engine/mining/rawTx.js';

const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
const key = hexToBytes('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
const to = '0x00000000000000000000000000000000000b10c0';

describe('decodeRawTransaction', () => {
  it('gives a frozen transaction whose serialize() is made once: the sent bytes, the same array every time', () => {
    const signed = [
      createFeeMarket1559Tx(
        { chainId: 1n, nonce: 7n, to, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, data: '0xa9059cbb' },
        { common },
      ).sign(key),
      createLegacyTx({ nonce: 0n, to, gasLimit: 21_000n, gasPrice: 10n ** 9n }, { common }).sign(key),
    ];
    for (const stock of signed) {
      const raw = stock.serialize();
      const tx = decodeRawTransaction(raw, common);
      expect(Object.isFrozen(tx)).toBe(true);
      const first = tx.serialize();
      // The same object: the pool's size check, the hash, the transaction root and the store share one encoding.
      expect(tx.serialize()).toBe(first);
      expect(bytesToHex(first)).toBe(bytesToHex(raw));
      expect(bytesToHex(tx.hash())).toBe(bytesToHex(keccak_256(raw)));
      expect(tx.getSenderAddress().equals(stock.getSenderAddress())).toBe(true);
    }
  });

  it("checks the pool's size limit on the raw bytes where geth's pool does: before the fork's types, the fields and the signature", () => {
    // A 200 KB contract creation: past the 128 KB limit and past EIP-3860's 48 KB of initcode. geth's pool
    // (ValidateTransaction) checks the size first; before, devgate answered the initcode limit.
    const creation = createFeeMarket1559Tx(
      { chainId: 1n, nonce: 0n, gasLimit: 16_000_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, data: new Uint8Array(200_000).fill(0x5b) },
      { common, allowUnlimitedInitCodeSize: true },
    ).sign(key);
    const raw = creation.serialize();
    expect(() => decodeRawTransaction(raw, common, 0, 131_072)).toThrow(`oversized data: transaction size ${raw.length}, limit 131072`);
    // A transaction type the fork does not take, past the limit: the size is still the answer, as in geth.
    const berlin = new Common({ chain: Mainnet, hardfork: Hardfork.Berlin });
    expect(() => decodeRawTransaction(raw, berlin, 0, 131_072)).toThrow('oversized data');
    // Under the limit (or with none) the other rules answer as before.
    const withParams = new Common({ chain: Mainnet, hardfork: Hardfork.Prague, params: paramsTx });
    expect(() => decodeRawTransaction(raw, withParams, 0, 1_000_000)).toThrow('max initcode size exceeded: code size 200000 limit 49152');
    expect(() => decodeRawTransaction(raw, withParams)).toThrow('max initcode size exceeded');
  });
});
