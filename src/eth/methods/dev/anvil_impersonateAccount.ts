import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';
import { impersonationOf } from './snapshotsOf.js';
import { addressAt } from '../reveals.js';

/**
 * anvil_impersonateAccount (also hardhat_impersonateAccount): eth_sendTransaction from this address is sent without
 * its key (a stand-in signature; the hash is stable and distinct).
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_impersonateAccount","params":["0x00000000000000000000000000000000000000c1"]} -> null
 */
export const anvil_impersonateAccount = defineMethod({
  name: 'anvil_impersonateAccount',
  facts: { dev: true, persists: true, reveals: addressAt(0) },
  params: [required('address', addressParam)],
  handler: (ctx: EthContext, address) => {
    impersonationOf(ctx).start(address);
    return null;
  },
});

/** hardhat_impersonateAccount: the same, answering true. */
export const hardhat_impersonateAccount = defineMethod({
  name: 'hardhat_impersonateAccount',
  facts: { dev: true, persists: true, reveals: addressAt(0) },
  params: [required('address', addressParam)],
  handler: (ctx: EthContext, address) => {
    impersonationOf(ctx).start(address);
    return true;
  },
});
