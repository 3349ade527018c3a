/** Sender recovery of raw seed transactions on a worker thread (senders.ts): the same keys as @ethereumjs recovers, or none. */
import { createBlockFromRLP } from '@ethereumjs/block';
import { createTxFromRLP } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import { seedCommon } from '../../../../src/eth/engine/exec/common.js';
import { MIN_RAW_TXS_FOR_WORKER, SenderKeys } from '../../../../src/eth/engine/build/senders.js';
import { decodeRawTx } from '../../../../src/eth/engine/build/seedTx.js';
import { parseSeed } from '../../../../src/seed/load.js';

const outsider = privateKeyToAccount('0x0123456789012345678901234567890123456789012345678901234567890123');
const B1 = '0x00000000000000000000000000000000000000b1';

async function signedTransfers(count: number, chainId = 31337): Promise<`0x${string}`[]> {
  const raws: `0x${string}`[] = [];
  for (let nonce = 0; nonce < count; nonce++) {
    raws.push(
      nonce % 3 === 0
        ? await outsider.signTransaction({ chainId, type: 'legacy', nonce, to: B1, value: 1n, gas: 21000n, gasPrice: 10n ** 10n })
        : await outsider.signTransaction({
            chainId,
            type: 'eip1559',
            nonce,
            to: B1,
            value: 1n,
            gas: 21000n,
            maxFeePerGas: 10n ** 10n,
            maxPriorityFeePerGas: 10n ** 9n,
          }),
    );
  }
  return raws;
}

describe('SenderKeys', () => {
  it('gives the key @ethereumjs recovers for each raw transaction, in order, and none for one it cannot decode or recover', async () => {
    const raws: string[] = await signedTransfers(40);
    const foreign = (await signedTransfers(1, 5))[0]!;
    raws.splice(7, 0, '0x02c0', foreign);
    const keys = SenderKeys.start({ chainId: 31337, name: 'raw', hardfork: 'osaka', raws });
    expect(keys).toBeDefined();
    const common = seedCommon(31337, 'raw', 'osaka');
    try {
      for (const [i, raw] of raws.entries()) {
        const got = await keys!.get(i);
        if (i === 7 || i === 8) expect(got).toBeUndefined();
        else {
          const tx = createTxFromRLP(hexToBytes(raw as `0x${string}`), { common });
          expect(bytesToHex(got!.publicKey)).toBe(bytesToHex(tx.getSenderPublicKey()));
          expect(bytesToHex(got!.address!)).toBe(tx.getSenderAddress().toString());
          // Canonical raw bytes: the worker gives the transaction's hash too.
          expect(bytesToHex(got!.hash!)).toBe(bytesToHex(tx.hash()));
        }
      }
      expect(await keys!.get(raws.length)).toBeUndefined();
    } finally {
      keys!.close();
    }
  });

  it('a seed with enough raw transactions for the worker builds with their senders', async () => {
    const raws = await signedTransfers(MIN_RAW_TXS_FOR_WORKER + 4);
    const blocks = Array.from({ length: raws.length / 10 }, (_, i) => ({ transactions: raws.slice(i * 10, i * 10 + 10).map((raw) => ({ raw })) }));
    const seed = { name: 'raw', kind: 'eth', chainId: 31337, alloc: { [outsider.address]: { balance: '1000000000000000000' } }, blocks, pending: [] };
    const chain = await chainFromSeed(parseSeed(seed, 'raw'));
    expect(chain.head().number).toBe(BigInt(blocks.length));
    const common = seedCommon(31337, 'raw', 'osaka');
    let i = 0;
    for (const block of chain.blocks(1n)) {
      expect(block.senders.map((s) => s.toString())).toEqual(block.block.transactions.map(() => outsider.address.toLowerCase()));
      expect(block.receipts.every((r) => r.status === 1)).toBe(true);
      // Transactions that serialize to their raw bytes and hash as the worker said: as stock @ethereumjs decodes and hashes them.
      for (const [j, tx] of block.block.transactions.entries()) {
        const stock = createTxFromRLP(hexToBytes(raws[i++]!), { common });
        expect(bytesToHex(tx.serialize())).toBe(bytesToHex(stock.serialize()));
        expect(bytesToHex(block.txHashes[j]!)).toBe(bytesToHex(stock.hash()));
      }
      // The block as stock @ethereumjs reads its bytes back: same hash, same transactions root.
      const again = createBlockFromRLP(block.block.serialize(), { common, setHardfork: true });
      expect(bytesToHex(again.hash())).toBe(bytesToHex(block.hash));
      expect(await again.transactionsTrieIsValid()).toBe(true);
    }
    expect(i).toBe(raws.length);
  });
});

describe('decodeRawTx', () => {
  it('with a hash from the worker: serialize() answers the raw bytes and hash() that hash; without: @ethereumjs serializes and hashes', async () => {
    const [raw] = await signedTransfers(2);
    const bytes = hexToBytes(raw!);
    const common = seedCommon(31337, 'raw', 'osaka');
    const stock = createTxFromRLP(bytes, { common });
    const hash = stock.hash();
    const given = decodeRawTx(bytes, common, { publicKey: stock.getSenderPublicKey(), hash });
    expect(given.tx.serialize()).toBe(bytes);
    expect(given.tx.hash()).toBe(hash);
    expect(given.sender.toString()).toBe(outsider.address.toLowerCase());
    const keyOnly = decodeRawTx(bytes, common, { publicKey: stock.getSenderPublicKey() });
    expect(keyOnly.tx.serialize()).not.toBe(bytes);
    expect(bytesToHex(keyOnly.tx.serialize())).toBe(raw);
    expect(bytesToHex(keyOnly.tx.hash())).toBe(bytesToHex(hash));
    expect(Object.isFrozen(given.tx) && Object.isFrozen(keyOnly.tx)).toBe(true);
  });
});
