import { defineMethod, optional } from '../../rpc/method.js';
import { bool } from '../../rpc/params.js';
import type { RollupContext } from '../context.js';
import { RollupControls } from '../engine/controls.js';
import { feltHex } from '../format.js';
import { decimal } from './devnetParams.js';

/**
 * devnet_getPredeployedAccounts: the seed's accounts with their keys (`private_key` when the seed gives
 * it) and initial ETH balance in wei; with `with_balance`, their ETH (WEI) and STRK (FRI) balances at the
 * pending state.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_getPredeployedAccounts","params":{"with_balance":true}}
 *   -> [{"initial_balance":"1000000000000000000000","address":"0x64b4...","public_key":"0x39d9...","private_key":"0x71d7...",
 *        "balance":{"eth":{"amount":"...","unit":"WEI"},"strk":{"amount":"...","unit":"FRI"}}}]
 */
export const devnet_getPredeployedAccounts = defineMethod({
  name: 'devnet_getPredeployedAccounts',
  facts: { dev: true },
  named: true,
  params: [optional('with_balance', bool)],
  handler: (ctx: RollupContext, withBalance) =>
    RollupControls.of(ctx.chain)
      .accountBalances()
      .map(({ account: a, wei, fri }) => ({
        initial_balance: decimal(a.initialBalanceWei),
        address: feltHex(a.address),
        public_key: feltHex(a.publicKey),
        ...(a.privateKey === undefined ? {} : { private_key: feltHex(a.privateKey) }),
        ...(withBalance === true ? { balance: { eth: { amount: decimal(wei), unit: 'WEI' }, strk: { amount: decimal(fri), unit: 'FRI' } } } : {}),
      })),
});

/** devnet_getAccounts: the same as devnet_getPredeployedAccounts (the name devgate's issue uses). */
export const devnet_getAccounts = { ...devnet_getPredeployedAccounts, name: 'devnet_getAccounts' };
