/** The Common (chain id + hardfork rules) of a seeded chain, with native sender recovery plugged in. */
import { paramsBlock } from '@ethereumjs/block';
import { createCustomCommon, Mainnet, type Common } from '@ethereumjs/common';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { nativeEcrecover } from './crypto.js';

/**
 * A Common for a seed: every mainnet hardfork up to `hardfork` activated at block 0 (so
 * `setHardforkBy` at any block gives `hardfork` back), chain id and name of the seed.
 */
export function seedCommon(chainId: number, name: string, hardfork: string): Common {
  const all = Mainnet.hardforks.map((h) => h.name);
  const upTo = all.indexOf(hardfork);
  if (upTo < 0) throw new Error(`unknown hardfork ${hardfork}`);
  const hardforks = all.slice(0, upTo + 1).map((n) => ({ name: n, block: 0 }));
  return prepareCommon(createCustomCommon({ chainId, name, hardforks }, Mainnet, { hardfork }));
}

/**
 * Readies a Common for the engine: registers the params of block, tx, EVM and VM (a fresh Common
 * throws `Missing parameter value` until someone did) and plugs in native sender recovery unless
 * it has its own.
 */
export function prepareCommon(common: Common): Common {
  for (const params of [paramsBlock, paramsTx, paramsEVM, paramsVM]) common.updateParams(params);
  if (nativeEcrecover !== undefined && common.customCrypto.ecrecover === undefined) common.customCrypto.ecrecover = nativeEcrecover;
  return common;
}
