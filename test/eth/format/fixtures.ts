/**
 * Blocks and transactions built directly with @ethereumjs (signed with dev account 0's key), for the
 * formatter unit tests: every transaction type 0-4, including blob and set-code transactions.
 */
import { createBlock, genTransactionsTrieRoot, genWithdrawalsTrieRoot } from '@ethereumjs/block';
import { createCustomCommon, Mainnet, type Common } from '@ethereumjs/common';
import { createAccessList2930Tx, createBlob4844Tx, createEOACode7702Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address, createAddressFromString, createWithdrawal, eoaCode7702SignAuthorization, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { lazyKzg } from '../../../src/eth/engine/exec/kzg.js';
import type { MinedBlock, StoredReceipt } from '../../../src/eth/engine/chain/types.js';

export const KEY0 = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
export const SENDER = createAddressFromString('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
export const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
export const BASE_FEE = 7n;
export const VERSIONED_HASH = ('0x01' + 'ab'.repeat(31)) as PrefixedHexString;

export function pragueCommon(): Common {
  return createCustomCommon({ chainId: 1337 }, Mainnet, { hardfork: 'prague', customCrypto: { kzg: lazyKzg } });
}

/** One signed transaction of each type 0 (EIP-155), 1, 2, 3 and 4. */
export function signedTxs(common: Common): TypedTransaction[] {
  const accessList = [{ address: TO as PrefixedHexString, storageKeys: [('0x' + '00'.repeat(31) + '01') as PrefixedHexString] }];
  const authorization = eoaCode7702SignAuthorization({ chainId: '0x539', address: TO as PrefixedHexString, nonce: '0x9' }, KEY0);
  return [
    createLegacyTx({ nonce: 0, gasPrice: 10, gasLimit: 21000, to: TO, value: 1 }, { common }).sign(KEY0),
    createAccessList2930Tx({ nonce: 1, gasPrice: 10, gasLimit: 30000, to: TO, value: 2, accessList }, { common }).sign(KEY0),
    createFeeMarket1559Tx({ nonce: 2, maxFeePerGas: 100, maxPriorityFeePerGas: 3, gasLimit: 21000, to: TO, data: '0xabcd' }, { common }).sign(KEY0),
    createBlob4844Tx(
      { nonce: 3, maxFeePerGas: 8, maxPriorityFeePerGas: 3, maxFeePerBlobGas: 5, gasLimit: 21000, to: TO, blobVersionedHashes: [VERSIONED_HASH] },
      { common },
    ).sign(KEY0),
    createEOACode7702Tx({ nonce: 4, maxFeePerGas: 50, maxPriorityFeePerGas: 2, gasLimit: 60000, to: TO, authorizationList: [authorization] }, { common }).sign(
      KEY0,
    ),
  ];
}

const receipt = (i: number, extra: Partial<StoredReceipt> = {}): StoredReceipt => ({
  status: 1,
  cumulativeGasUsed: BigInt(21000 * (i + 1)),
  gasUsed: 21000n,
  effectiveGasPrice: 10n,
  logsBloom: new Uint8Array(256),
  logs: [],
  ...extra,
});

/** A block holding `signedTxs` (its tx and withdrawal roots computed), as the engine would index it (receipts by hand). */
export async function minedBlock(common: Common, receipts?: StoredReceipt[]): Promise<MinedBlock> {
  const txs = signedTxs(common);
  const withdrawals = [{ index: 1n, validatorIndex: 2n, address: new Address(hexToBytes(TO)), amount: 3n }];
  const block = createBlock(
    {
      header: {
        number: 5n,
        timestamp: 1_700_000_000n,
        gasLimit: 30_000_000n,
        baseFeePerGas: BASE_FEE,
        excessBlobGas: 0n,
        blobGasUsed: 131072n,
        parentBeaconBlockRoot: new Uint8Array(32),
        transactionsTrie: await genTransactionsTrieRoot(txs),
        withdrawalsRoot: await genWithdrawalsTrieRoot(withdrawals.map((w) => createWithdrawal(w))),
      },
      transactions: txs,
      withdrawals,
    },
    { common },
  );
  return {
    block,
    header: block.header,
    hash: block.hash(),
    txHashes: txs.map((tx) => tx.hash()),
    number: 5n,
    totalDifficulty: 123n,
    senders: txs.map(() => SENDER),
    receipts: receipts ?? txs.map((_, i) => receipt(i, i === 3 ? { blobGasUsed: 131072n, blobGasPrice: 1n } : {})),
  };
}
