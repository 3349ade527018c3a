import { defineMethod, required } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';
import { impersonationOf } from './snapshotsOf.js';
import { addressAt } from '../reveals.js';

/**
 * anvil_stopImpersonatingAccount (also hardhat_stopImpersonatingAccount): ends impersonating an address.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_stopImpersonatingAccount","params":["0x00000000000000000000000000000000000000c1"]} -> null
 */
export const anvil_stopImpersonatingAccount = defineMethod({
  name: 'anvil_stopImpersonatingAccount',
  facts: { dev: true, persists: true, reveals: addressAt(0) },
  params: [required('address', addressParam)],
  handler: (ctx: EthContext, address) => {
    impersonationOf(ctx).stop(address);
    return null;
  },
});

/** hardhat_stopImpersonatingAccount: the same, answering whether the address was impersonated. */
export const hardhat_stopImpersonatingAccount = defineMethod({
  name: 'hardhat_stopImpersonatingAccount',
  facts: { dev: true, persists: true, reveals: addressAt(0) },
  params: [required('address', addressParam)],
  handler: (ctx: EthContext, address) => impersonationOf(ctx).stop(address),
});
