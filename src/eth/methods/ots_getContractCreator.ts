import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { contractCreator } from '../engine/query/otsSearch.js';
import { txHashHex } from '../format/wireText.js';
import { addressParam } from '../params.js';
import { addressAt } from './reveals.js';

/**
 * ots_getContractCreator: `{ hash, creator }` of the contract at an address, the transaction that created it and the
 * account that ran the CREATE (the contract itself for a factory's child, as Erigon); null for an account without
 * code, code in genesis or code set by anvil_setCode. The block is found by halving the chain, then traced.
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_getContractCreator","params":["0x5fbdb2315678afecb367f032d93f642f64180aa3"]}
 */
export const ots_getContractCreator = defineMethod({
  name: 'ots_getContractCreator',
  facts: { heavy: true, reveals: addressAt(0) },
  params: [required('address', addressParam)],
  handler: async (ctx: EthContext, address) => {
    const found = await contractCreator(ctx.chain, address);
    return found === undefined ? null : { hash: txHashHex(found.tx.block, found.tx.index), creator: found.creator.toString() };
  },
});
