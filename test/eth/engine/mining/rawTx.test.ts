/** decodeRawTransaction (src/eth/engine/mining/rawTx.ts): a decoded raw transaction serializes once, frozen as @ethereumjs freezes it. */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx';
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
});
