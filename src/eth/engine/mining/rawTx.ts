/**
 * A raw transaction as sent (eth_sendRawTransaction): the RLP of a legacy transaction, or a typed envelope
 * (0x01, 0x02, 0x04; a blob transaction 0x03 in its network form, with blobs, commitments and proofs).
 * Decoded under the rules of the next block, so a type the fork does not know is refused by name.
 */
import type { Common } from '@ethereumjs/common';
import { createBlob4844TxFromSerializedNetworkWrapper, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { TxRejected } from './txRejected.js';

const TYPES: Record<number, { name: string; eip: number }> = {
  1: { name: 'access list (0x01)', eip: 2930 },
  2: { name: 'dynamic fee (0x02)', eip: 1559 },
  3: { name: 'blob (0x03)', eip: 4844 },
  4: { name: 'set code (0x04)', eip: 7702 },
};

/** Decodes a raw transaction for a chain at the rules of `common`; TxRejected names what is wrong. */
export function decodeRawTransaction(raw: Uint8Array, common: Common): TypedTransaction {
  if (raw.length === 0) throw new TxRejected('empty transaction data');
  const first = raw[0]!;
  if (first <= 0x7f) {
    const type = Object.hasOwn(TYPES, first) ? TYPES[first] : undefined;
    if (type === undefined) throw new TxRejected(`transaction type not supported: 0x${first.toString(16).padStart(2, '0')}`);
    if (!common.isActivatedEIP(type.eip))
      throw new TxRejected(`transaction type not supported: a ${type.name} transaction needs EIP-${type.eip}, not active at hardfork ${common.hardfork()}`);
  }
  try {
    if (first === 3) return createBlob4844TxFromSerializedNetworkWrapper(raw, { common });
    return createTxFromRLP(raw, { common });
  } catch (err) {
    const full = err instanceof Error ? err.message : String(err);
    // geth's ErrGasLimitTooHigh (EIP-7825: a transaction's gas is capped at 2^24 from osaka on).
    const cap = /gas limit (\d+) exceeds the maximum allowed by EIP-7825 \((\d+)\)/.exec(full);
    if (cap !== null) throw new TxRejected(`transaction gas limit too high (cap: ${cap[2]}, tx: ${cap[1]})`);
    const message = full.split(' (')[0]!.split('\n')[0]!;
    if (/chain ?id/i.test(message)) throw new TxRejected(`invalid chain id for signer: ${message}`);
    throw new TxRejected(`invalid transaction: ${message}`);
  }
}
