/**
 * The proof object of eth_getProof (SPEC 2.4, EIP-1186) as geth marshals it: storage keys echoed as
 * given (a 32-byte key as 32 bytes, a shorter one as a quantity), values as minimal quantities.
 */
import { bytesToBigInt } from '@ethereumjs/util';
import { bytesHex, quantityHex } from '../../hex.js';
import type { AccountProof } from '../engine/query/proof.js';

export function formatProof(p: AccountProof): Record<string, unknown> {
  return {
    address: p.address.toString(),
    accountProof: p.accountProof.map(bytesHex),
    balance: quantityHex(p.balance),
    codeHash: bytesHex(p.codeHash),
    nonce: quantityHex(p.nonce),
    storageHash: bytesHex(p.storageHash),
    storageProof: p.storageProof.map((s) => ({
      key: s.key.length === 32 ? bytesHex(s.key.slot) : quantityHex(bytesToBigInt(s.key.slot)),
      value: quantityHex(s.value),
      proof: s.proof.map(bytesHex),
    })),
  };
}
