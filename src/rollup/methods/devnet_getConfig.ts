import { plainHexView } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { RollupControls } from '../engine/controls.js';
import type { GasPrices } from '../engine/types.js';
import { feltHex } from '../format.js';
import { decimal } from './devnetParams.js';

/** A price as starknet-devnet writes it (a JSON number), or a decimal string where a number would lose digits. */
const price = (n: bigint): number | string => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : decimal(n));

/** A felt holding a short string, as text. */
const shortText = (n: bigint): string =>
  Buffer.from(
    plainHexView(
      n
        .toString(16)
        .padStart(2, '0')
        .replace(/^(.)((..)*)$/, '0$1$2'),
    ),
  ).toString('latin1');

/**
 * devnet_getConfig: the network's configuration in starknet-devnet's shape, with devgate's values:
 * no generator seed (`seed` null), the seed's accounts, the gas prices blocks are sealed with now,
 * `block_generation_on` "demand" or {"interval": seconds}, `state_archive` "full" (every block's state
 * is kept), `dump_on` "request" (devnet_dump always answers; devgate has no dump path of its own) and no fork.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_getConfig"} -> {"seed":null,"total_accounts":3,...,"chain_id":"SN_MAIN",...}
 */
export const devnet_getConfig = defineMethod({
  name: 'devnet_getConfig',
  facts: { dev: true },
  named: true,
  params: [],
  handler: (ctx: RollupContext) => {
    const controls = RollupControls.of(ctx.chain);
    const c = ctx.chain.config;
    const first = controls.accounts[0];
    const prices = (name: string, p: GasPrices) => ({ [`${name}_wei`]: price(p.wei), [`${name}_fri`]: price(p.fri) });
    return {
      seed: null,
      total_accounts: controls.accounts.length,
      account_contract_class_hash: first === undefined ? null : feltHex(first.classHash),
      predeployed_accounts_initial_balance: first === undefined ? '0' : decimal(first.initialBalanceWei),
      start_time: null,
      ...prices('gas_price', c.gasPrices),
      ...prices('data_gas_price', c.dataGasPrices),
      ...prices('l2_gas_price', c.l2GasPrices),
      chain_id: shortText(c.chainId),
      dump_on: 'request', // devnet_dump answers at any time (docs/rollup.md, "Dump and load")
      dump_path: null,
      block_generation_on: c.blockTimeMs === undefined ? 'demand' : { interval: c.blockTimeMs / 1000 },
      lite_mode: false,
      state_archive: 'full',
      fork_config: { url: null, block_number: null },
      fee_tokens: { eth: feltHex(c.feeTokens.eth), strk: feltHex(c.feeTokens.strk) },
      l1_acceptance: c.l1Acceptance,
      starknet_version: c.starknetVersion,
    };
  },
});
