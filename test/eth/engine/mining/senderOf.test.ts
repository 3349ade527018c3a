import { createTx } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { seedCommon } from '../../../../src/eth/engine/exec/common.js';
import { senderOf, TxRejected } from '../../../../src/eth/engine/mining/send.js';

const common = seedCommon(31337, 'dev', 'prague');
const key = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcaa3ff0e0ac6b8a6d');
const to = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as const;

describe('senderOf', () => {
  it('is the address @ethereumjs recovers, for every transaction type', () => {
    const fields = { nonce: 3n, to, gasLimit: 50_000n, value: 1n, data: '0x1234' as const };
    const txs = [
      createTx({ ...fields, type: 0, gasPrice: 10n }, { common }),
      createTx({ ...fields, type: 1, gasPrice: 10n, accessList: [] }, { common }),
      createTx({ ...fields, type: 2, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }, { common }),
      createTx(
        {
          ...fields,
          type: 4,
          maxFeePerGas: 10n,
          maxPriorityFeePerGas: 1n,
          authorizationList: [{ chainId: '0x0', address: to, nonce: '0x0', yParity: '0x0', r: '0x1', s: '0x1' }],
        },
        { common },
      ),
    ];
    for (const tx of txs) {
      const signed = tx.sign(key);
      expect(senderOf(signed).toString()).toBe(signed.getSenderAddress().toString());
      expect(senderOf(signed).toString()).toBe(bytesToHex(privateToAddress(key)));
    }
  });

  it("refuses an unsigned transaction as 'invalid sender'", () => {
    const tx = createTx({ type: 2, to, gasLimit: 21_000n, maxFeePerGas: 10n }, { common });
    expect(() => senderOf(tx)).toThrow(TxRejected);
    expect(() => senderOf(tx)).toThrow('invalid sender');
  });
});
