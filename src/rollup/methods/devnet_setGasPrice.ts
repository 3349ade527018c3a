import { InvalidArgument } from '../../errors.js';
import { defineMethod, optional } from '../../rpc/method.js';
import { bool, describe, type Decoder } from '../../rpc/params.js';
import type { RollupContext } from '../context.js';
import { RollupControls } from '../engine/controls.js';
import type { GasPrices } from '../engine/types.js';
import { decimal } from './devnetParams.js';

/** A gas price: a positive JSON integer, or a decimal or 0x-hex string for values a JSON number cannot carry. */
const gasPrice: Decoder<bigint> = (value) => {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return BigInt(value);
  if (typeof value === 'string' && /^([1-9][0-9]{0,38}|0x[0-9a-fA-F]{1,32})$/.test(value) && BigInt(value) > 0n) return BigInt(value);
  throw new InvalidArgument(`want a positive integer price, got ${describe(value)}`);
};

const price = (n: bigint): number | string => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : decimal(n));
const both = (name: string, p: GasPrices) => ({ [`${name}_wei`]: price(p.wei), [`${name}_fri`]: price(p.fri) });

/**
 * devnet_setGasPrice: the L1 gas prices (`gas_price_wei`, `gas_price_fri`, whole gwei) of the blocks after
 * the pending one; with `generate_block` the pending block is sealed now. The L1 data gas and L2 gas
 * prices are the network's: the params are taken only with their current values. Answers the six prices
 * the next blocks get.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_setGasPrice","params":{"gas_price_wei":40000000000,"generate_block":true}}
 *   -> {"gas_price_wei":40000000000,"gas_price_fri":50000000000000,"data_gas_price_wei":...,"l2_gas_price_fri":...}
 */
export const devnet_setGasPrice = defineMethod({
  name: 'devnet_setGasPrice',
  facts: { dev: true },
  named: true,
  params: [
    optional('gas_price_wei', gasPrice),
    optional('data_gas_price_wei', gasPrice),
    optional('gas_price_fri', gasPrice),
    optional('data_gas_price_fri', gasPrice),
    optional('l2_gas_price_wei', gasPrice),
    optional('l2_gas_price_fri', gasPrice),
    optional('generate_block', bool),
  ],
  handler: (ctx: RollupContext, wei, dataWei, fri, dataFri, l2Wei, l2Fri, generate) => {
    const r = RollupControls.of(ctx.chain).setGasPrice({ wei, fri, dataWei, dataFri, l2Wei, l2Fri }, generate ?? false);
    return { ...both('gas_price', r.l1), ...both('data_gas_price', r.data), ...both('l2_gas_price', r.l2) };
  },
});
