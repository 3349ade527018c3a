import { defineMethod, optional, required } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { RollupControls } from '../engine/controls.js';
import { feltHex } from '../format.js';
import { felt } from '../params.js';
import { amount, decimal, feeUnit } from './devnetParams.js';

/**
 * devnet_mint: mints fee tokens (`unit` WEI: ETH, FRI: STRK, the default) to a deployed contract by a
 * transaction from starknet-devnet's chargeable account into the pending block; answers the pending
 * balance after it (a decimal string) and the transaction's hash.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_mint","params":{"address":"0x64b4...691","amount":1000000,"unit":"WEI"}}
 *   -> {"new_balance":"1000000000000001000000","unit":"WEI","tx_hash":"0x..."}
 */
export const devnet_mint = defineMethod({
  name: 'devnet_mint',
  facts: { dev: true },
  named: true,
  params: [required('address', felt), required('amount', amount), optional('unit', feeUnit)],
  handler: (ctx: RollupContext, address, value, unit) => {
    const u = unit ?? 'FRI';
    const minted = RollupControls.of(ctx.chain).mint(address, value, u);
    return { new_balance: decimal(minted.newBalance), unit: u, tx_hash: feltHex(minted.txHash) };
  },
});
