/**
 * formatTransaction for every type: the exact field set of geth's RPCTransaction per type, values in
 * their wire forms, and an independent check: ethers rebuilds each tx from the wire object and gets
 * the same hash and sender (so every signed field and the signature are right).
 */
import { Transaction } from 'ethers';
import { describe, expect, it } from 'vitest';
import { formatTransaction } from '../../../src/eth/format/transaction.js';
import { BASE_FEE, minedBlock, pragueCommon, SENDER, TO, VERSIONED_HASH } from './fixtures.js';

const BASE = ['blockHash', 'blockNumber', 'from', 'gas', 'gasPrice', 'hash', 'input', 'nonce', 'to', 'transactionIndex', 'value', 'type', 'v', 'r', 's'];
const KEYS: Record<number, string[]> = {
  0: [...BASE, 'chainId'],
  1: [...BASE, 'accessList', 'chainId', 'yParity'],
  2: [...BASE, 'accessList', 'chainId', 'yParity', 'maxFeePerGas', 'maxPriorityFeePerGas'],
  3: [...BASE, 'accessList', 'chainId', 'yParity', 'maxFeePerGas', 'maxPriorityFeePerGas', 'maxFeePerBlobGas', 'blobVersionedHashes'],
  4: [...BASE, 'accessList', 'chainId', 'yParity', 'maxFeePerGas', 'maxPriorityFeePerGas', 'authorizationList'],
};

const mined = await minedBlock(pragueCommon());
const wire = mined.block.transactions.map((tx, index) =>
  formatTransaction(tx, SENDER, { kind: 'mined', blockHash: mined.hash, blockNumber: mined.number, index, baseFee: BASE_FEE }),
) as Record<string, any>[];

/** The wire object as ethers' transaction fields. */
function ethersTx(w: Record<string, any>): Transaction {
  return Transaction.from({
    type: Number(w.type),
    chainId: w.chainId === undefined ? undefined : BigInt(w.chainId),
    nonce: Number(w.nonce),
    gasLimit: BigInt(w.gas),
    gasPrice: Number(w.type) < 2 ? BigInt(w.gasPrice) : undefined,
    maxFeePerGas: w.maxFeePerGas === undefined ? undefined : BigInt(w.maxFeePerGas),
    maxPriorityFeePerGas: w.maxPriorityFeePerGas === undefined ? undefined : BigInt(w.maxPriorityFeePerGas),
    maxFeePerBlobGas: w.maxFeePerBlobGas === undefined ? undefined : BigInt(w.maxFeePerBlobGas),
    blobVersionedHashes: w.blobVersionedHashes,
    authorizationList: w.authorizationList?.map((a: any) => ({
      chainId: BigInt(a.chainId),
      address: a.address,
      nonce: BigInt(a.nonce),
      signature: { r: '0x' + a.r.slice(2).padStart(64, '0'), s: '0x' + a.s.slice(2).padStart(64, '0'), yParity: Number(a.yParity) },
    })),
    to: w.to,
    value: BigInt(w.value),
    data: w.input,
    accessList: w.accessList,
    signature: { r: '0x' + w.r.slice(2).padStart(64, '0'), s: '0x' + w.s.slice(2).padStart(64, '0'), v: Number(w.v) },
  });
}

describe('formatTransaction', () => {
  it.each([0, 1, 2, 3, 4])('type %i has exactly geth fields, and ethers rebuilds the same hash and sender', (type) => {
    const w = wire[type]!;
    expect(w.type).toBe('0x' + type.toString(16));
    expect(Object.keys(w).sort()).toEqual([...KEYS[type]!].sort());
    expect(w.blockHash).toBe('0x' + Buffer.from(mined.hash).toString('hex'));
    expect(w.blockNumber).toBe('0x5');
    expect(w.transactionIndex).toBe('0x' + type.toString(16));
    expect(w.chainId).toBe('0x539');
    expect(w.from).toBe(SENDER.toString());
    const rebuilt = ethersTx(w);
    expect(rebuilt.hash).toBe(w.hash);
    expect(rebuilt.from?.toLowerCase()).toBe(SENDER.toString());
  });

  it('gives the effective gas price of mined fee-market txs and the price of the others', () => {
    expect(wire[0]!.gasPrice).toBe('0xa');
    expect(wire[1]!.gasPrice).toBe('0xa');
    expect(wire[2]!.gasPrice).toBe('0xa'); // min(7 + 3, 100)
    expect(wire[3]!.gasPrice).toBe('0x8'); // min(7 + 3, 8)
    expect(wire[4]!.gasPrice).toBe('0x9'); // min(7 + 2, 50)
  });

  it('uses v = 27/28 + EIP-155 for legacy txs and v = yParity for typed ones', () => {
    expect([0x0a95n, 0x0a96n]).toContain(BigInt(wire[0]!.v));
    for (const w of wire.slice(1)) {
      expect(['0x0', '0x1']).toContain(w.yParity);
      expect(w.v).toBe(w.yParity);
    }
    for (const w of wire) {
      expect(w.r).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
      expect(w.s).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    }
  });

  it('carries access lists, blob fields and authorization lists in wire forms', () => {
    expect(wire[1]!.accessList).toEqual([{ address: TO, storageKeys: ['0x' + '00'.repeat(31) + '01'] }]);
    expect(wire[2]!.accessList).toEqual([]);
    expect(wire[2]!.input).toBe('0xabcd');
    expect(wire[3]!.maxFeePerBlobGas).toBe('0x5');
    expect(wire[3]!.blobVersionedHashes).toEqual([VERSIONED_HASH]);
    const [auth] = wire[4]!.authorizationList;
    expect(Object.keys(auth)).toEqual(['chainId', 'address', 'nonce', 'yParity', 'r', 's']);
    expect(auth.chainId).toBe('0x539');
    expect(auth.address).toBe(TO);
    expect(auth.nonce).toBe('0x9');
  });

  it('a pending tx has null placement (blockTimestamp too, as geth) and pays its maxFeePerGas', () => {
    const tx = mined.block.transactions[2]!;
    const w = formatTransaction(tx, SENDER, { kind: 'pending' }) as Record<string, any>;
    expect([w.blockHash, w.blockNumber, w.blockTimestamp, w.transactionIndex]).toEqual([null, null, null, null]);
    expect(Object.keys(w).slice(0, 3)).toEqual(['blockHash', 'blockNumber', 'blockTimestamp']);
    expect(w.gasPrice).toBe(w.maxFeePerGas);
    expect(w.hash).toBe(wire[2]!.hash);
  });

  it('a legacy tx without EIP-155 has no chainId', async () => {
    const { createCustomCommon, Mainnet } = await import('@ethereumjs/common');
    const { createLegacyTx } = await import('@ethereumjs/tx');
    const { KEY0 } = await import('./fixtures.js');
    const common = createCustomCommon({ chainId: 1337 }, Mainnet, { hardfork: 'homestead' });
    const tx = createLegacyTx({ nonce: 0, gasPrice: 10, gasLimit: 21000, to: TO, value: 1 }, { common }).sign(KEY0);
    const w = formatTransaction(tx, SENDER, { kind: 'mined', blockHash: new Uint8Array(32), blockNumber: 1n, index: 0 }) as Record<string, any>;
    expect(w).not.toHaveProperty('chainId');
    expect(['0x1b', '0x1c']).toContain(w.v);
    expect(Object.keys(w).sort()).toEqual([...BASE].sort());
  });
});
