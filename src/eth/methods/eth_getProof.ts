import { defineMethod, optional, required } from '../../rpc/method.js';
import { arrayOf, blockNumberOrHash } from '../../rpc/params.js';
import { LimitExceeded } from '../../errors.js';
import type { EthContext } from '../context.js';

/** Storage keys one eth_getProof may ask for (devgate's bound: a proof per key is real trie work). */
export const MAX_PROOF_KEYS = 1024;
import { proveAt } from '../engine/query/proof.js';
import { formatProof } from '../format/proof.js';
import { addressParam, stateBlock, storageSlot } from '../params.js';
import { addressAt } from './reveals.js';

/**
 * eth_getProof (EIP-1186): the account and storage proofs of an address at a block, as geth answers:
 * keys echoed as given, values as minimal quantities, proofs of absence for absent accounts and slots.
 * Every proof verifies against that block's stateRoot.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getProof","params":["0x7f0d15c7faae65896648c8273b6d7e43f58fa842",["0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"],"latest"]}
 */
export const eth_getProof = defineMethod({
  name: 'eth_getProof',
  facts: { heavy: true, reveals: addressAt(0) },
  params: [required('address', addressParam), required('storageKeys', arrayOf(storageSlot, 'an array of storage keys')), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, keys, sel) => {
    if (keys.length > MAX_PROOF_KEYS)
      throw new LimitExceeded(`too many storage keys: at most ${MAX_PROOF_KEYS} in one eth_getProof, got ${keys.length}`, { limit: MAX_PROOF_KEYS });
    // A block asked by number or hash is proved against its header's stateRoot, also while head carries unmined edits.
    const byNumberOrHash = sel !== undefined && !('tag' in sel);
    return formatProof(await proveAt(ctx.chain, await stateBlock(ctx.node, sel), address, keys, byNumberOrHash));
  },
});
