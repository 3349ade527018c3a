/**
 * evm/feeMarketTx.ts: the light EIP-1559 transaction (a call's estimate runs, eth_fillTransaction) is the object the
 * stock constructor makes (same prototype, own fields in the same order with equal values, same encoding, hash, gas
 * and costs), and fields the stock constructor refuses get the stock refusal.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createFeeMarket1559Tx, type FeeMarket1559Tx } from '@ethereumjs/tx';
import { Address, bytesToHex, MAX_INTEGER, MAX_UINT64 } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { feeMarketTx, type FeeMarketFields } from '../../../../src/eth/engine/evm/feeMarketTx.js';

const to = new Address(Uint8Array.from({ length: 20 }, (_, i) => i + 1));
const base: FeeMarketFields = {
  nonce: 7n,
  gasLimit: 60_000n,
  to,
  value: 1n,
  data: Uint8Array.from([0xa9, 0x05, 0x9c, 0xbb, 1, 2, 3]),
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
  accessList: [],
};

/** Everything a reader of the transaction sees, as plain values. */
function view(tx: FeeMarket1559Tx) {
  const fields = Object.entries(tx).map(([k, v]) =>
    k === 'common' ? [k, (v as Common).hardfork(), (v as Common).chainId()] : k === 'txOptions' ? [k] : [k, v instanceof Address ? v.toString() : v],
  );
  return {
    proto: Object.getPrototypeOf(tx),
    frozen: Object.isFrozen(tx),
    fields,
    raw: bytesToHex(tx.serialize()),
    hash: bytesToHex(tx.getHashedMessageToSign()),
    intrinsic: tx.getIntrinsicGas(),
    upfront: tx.getUpfrontCost(7n),
    dataGas: tx.getDataGas(),
    json: tx.toJSON(),
  };
}

function refusal(make: () => unknown): string | undefined {
  try {
    make();
    return undefined;
  } catch (err) {
    return String(err);
  }
}

describe('feeMarketTx', () => {
  for (const hardfork of [Hardfork.London, Hardfork.Cancun, Hardfork.Prague, Hardfork.Osaka]) {
    const common = new Common({ chain: Mainnet, hardfork });
    const cases: [string, FeeMarketFields][] = [
      ['a call', base],
      ['no data, no value, zero fees', { ...base, data: new Uint8Array(), value: 0n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }],
      ['the chain id given', { ...base, chainId: common.chainId() }],
      ['largest nonce', { ...base, nonce: MAX_UINT64 - 1n }],
      ['largest value', { ...base, value: MAX_INTEGER }],
      // Refused by the stock constructor (or outside what the light one makes): the stock answer.
      ['a creation', { ...base, to: undefined }],
      ['an access list', { ...base, accessList: [[to.bytes, [new Uint8Array(32)]]] }],
      ['nonce at 2^64-1', { ...base, nonce: MAX_UINT64 }],
      ['gas over 2^64-1', { ...base, gasLimit: MAX_UINT64 + 1n }],
      ['gas over EIP-7825 cap', { ...base, gasLimit: 30_000_000n }],
      ['value over 2^256-1', { ...base, value: MAX_INTEGER + 1n }],
      ['tip over fee cap', { ...base, maxPriorityFeePerGas: base.maxFeePerGas + 1n }],
      ['gas times fee over 2^256-1', { ...base, maxFeePerGas: MAX_INTEGER / 1000n, maxPriorityFeePerGas: 0n }],
      ['another chain id', { ...base, chainId: 5n }],
    ];
    for (const [name, f] of cases) {
      for (const freeze of [true, false]) {
        it(`${hardfork}, ${name}, freeze ${freeze}: as the stock constructor`, () => {
          const opts = { common, freeze };
          const stock = refusal(() => createFeeMarket1559Tx(f as never, opts));
          const light = refusal(() => feeMarketTx(f, opts));
          expect(light).toBe(stock);
          if (stock !== undefined) return;
          expect(view(feeMarketTx(f, opts))).toEqual(view(createFeeMarket1559Tx(f as never, opts)));
        });
      }
    }
  }

  it('shares one transaction Common per Common and hardfork, never the Common given', () => {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const a = feeMarketTx(base, { common });
    const b = feeMarketTx({ ...base, nonce: 8n }, { common });
    expect(a.common).toBe(b.common);
    expect(a.common).not.toBe(common);
    // The transaction params are merged into the copy, as the stock constructor merges them.
    expect(a.common.param('txGas')).toBe(createFeeMarket1559Tx(base as never, { common }).common.param('txGas'));
  });
});
