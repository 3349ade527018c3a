/**
 * The transaction object (SPEC 2.2) for every type, in geth's field order: chainId and accessList from
 * type 1 on (and for EIP-155 legacy txs, chainId), fee fields of type 2+, blob fields of type 3, the
 * authorization list of type 4, yParity for typed txs. `gasPrice` of a mined type 2+ tx is its effective
 * gas price; of a pending one, its maxFeePerGas (as geth). A pending tx has null blockHash, blockNumber,
 * blockTimestamp and transactionIndex.
 */
import { TransactionType } from '@ethereumjs/tx';
import { bytesToBigInt, type Address } from '@ethereumjs/util';
import { bytesHex, quantityHex } from '../../hex.js';
import type { RawJson } from '../../rpc/rawJson.js';
import type { MinedBlock, TxFields } from '../engine/chain/types.js';
import { formatAccessList } from './accessList.js';
import { headerOf, txOf } from './mined.js';
import { rawJsonOf, textsOf, txHashHex } from './wireText.js';

/** Where a transaction is: mined at an index of a block, or pending. */
export type TxPlacement =
  | {
      readonly kind: 'mined';
      readonly blockHash: Uint8Array;
      readonly blockNumber: bigint;
      readonly blockTimestamp?: bigint;
      readonly index: number;
      readonly baseFee?: bigint;
    }
  | { readonly kind: 'pending' };

/** Where the transaction at `index` of a mined block sits. */
export function minedPlacement(mined: MinedBlock, index: number): TxPlacement {
  const h = headerOf(mined);
  return { kind: 'mined', blockHash: mined.hash, blockNumber: mined.number, blockTimestamp: h.timestamp, index, baseFee: h.baseFeePerGas };
}

/** The JSON text of the transaction at `index` of a mined block, made once. */
export function minedTransactionJson(mined: MinedBlock, index: number): RawJson {
  return (textsOf(mined).transactions[index] ??= rawJsonOf(
    formatTransaction(txOf(mined, index), mined.senders[index]!, minedPlacement(mined, index), txHashHex(mined, index)),
  ));
}

/** `tx`: an @ethereumjs transaction or a restored one's fields; `hash`: its hex hash (default: tx.hash(), which fields alone lack). */
export function formatTransaction(
  tx: TxFields & { hash?: () => Uint8Array },
  from: Address,
  at: TxPlacement,
  hash: string = bytesHex(tx.hash!()),
): Record<string, unknown> {
  const mined = at.kind === 'mined';
  const out: Record<string, unknown> = {
    blockHash: mined ? bytesHex(at.blockHash) : null,
    blockNumber: mined ? quantityHex(at.blockNumber) : null,
  };
  // geth's blockTimestamp: the block's time on a mined transaction, null on a pending one (as its txpool_content and
  // eth_getTransactionByHash answer).
  if (!mined) out.blockTimestamp = null;
  else if (at.blockTimestamp !== undefined) out.blockTimestamp = quantityHex(at.blockTimestamp);
  Object.assign(out, {
    from: from.toString(),
    gas: quantityHex(tx.gasLimit),
    gasPrice: quantityHex(gasPriceOf(tx, at)),
  });
  if ('maxFeePerGas' in tx) {
    out.maxFeePerGas = quantityHex(tx.maxFeePerGas);
    out.maxPriorityFeePerGas = quantityHex(tx.maxPriorityFeePerGas);
  }
  if (tx.type === TransactionType.BlobEIP4844) out.maxFeePerBlobGas = quantityHex(tx.maxFeePerBlobGas);
  out.hash = hash;
  out.input = bytesHex(tx.data);
  out.nonce = quantityHex(tx.nonce);
  out.to = tx.to === undefined ? null : tx.to.toString();
  out.transactionIndex = mined ? quantityHex(at.index) : null;
  out.value = quantityHex(tx.value);
  out.type = quantityHex(tx.type);
  if ('accessList' in tx) out.accessList = formatAccessList(tx.accessList);
  const chainId = chainIdOf(tx);
  if (chainId !== undefined) out.chainId = quantityHex(chainId);
  if (tx.type === TransactionType.BlobEIP4844) out.blobVersionedHashes = tx.blobVersionedHashes.map((h) => h.toLowerCase());
  if (tx.type === TransactionType.EOACodeEIP7702) {
    out.authorizationList = tx.authorizationList.map(([chain, address, nonce, yParity, r, s]) => ({
      chainId: quantityHex(bytesToBigInt(chain)),
      address: bytesHex(address),
      nonce: quantityHex(bytesToBigInt(nonce)),
      yParity: quantityHex(bytesToBigInt(yParity)),
      r: quantityHex(bytesToBigInt(r)),
      s: quantityHex(bytesToBigInt(s)),
    }));
  }
  out.v = quantityHex(tx.v ?? 0n);
  out.r = quantityHex(tx.r ?? 0n);
  out.s = quantityHex(tx.s ?? 0n);
  if (tx.type !== TransactionType.Legacy) out.yParity = quantityHex(tx.v ?? 0n);
  return out;
}

/** The price per gas the sender pays: the effective price of a mined fee-market tx, else its cap or gasPrice. */
export function gasPriceOf(tx: TxFields, at: TxPlacement): bigint {
  if (!('maxFeePerGas' in tx)) return tx.gasPrice;
  if (at.kind === 'mined' && at.baseFee !== undefined) return effectiveGasPrice(tx.maxFeePerGas, tx.maxPriorityFeePerGas, at.baseFee);
  return tx.maxFeePerGas;
}

/** min(baseFee + maxPriorityFeePerGas, maxFeePerGas). */
export function effectiveGasPrice(maxFeePerGas: bigint, maxPriorityFeePerGas: bigint, baseFee: bigint): bigint {
  const withTip = baseFee + maxPriorityFeePerGas;
  return withTip < maxFeePerGas ? withTip : maxFeePerGas;
}

/** The chain id a tx carries: its field for typed txs, derived from v for EIP-155 legacy txs, none otherwise. */
function chainIdOf(tx: TxFields): bigint | undefined {
  if (tx.type !== TransactionType.Legacy) return tx.chainId;
  const v = tx.v;
  if (v === undefined || v === 27n || v === 28n) return undefined;
  return (v - 35n) / 2n;
}
