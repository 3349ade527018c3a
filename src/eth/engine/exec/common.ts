/** The Common (chain id + hardfork rules) of a seeded chain, with native sender recovery plugged in. */
import { paramsBlock } from '@ethereumjs/block';
import { Common, createCustomCommon, Mainnet } from '@ethereumjs/common';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { nativeEcrecover, nativeEcsign, nativeKeccak256 } from './crypto.js';
import { lazyKzg } from './kzg.js';
import { isActivatedEIPBySet } from '../evm/common.js';

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

/** Param sets already merged into every Common the engine prepared. */
const registered = new WeakSet<object>();
const baseUpdateParams = Common.prototype.updateParams;

/** The Commons prepareCommon readied (a restore hands one Common to it three times). */
const prepared = new WeakSet<Common>();

/**
 * Readies a Common for the engine: registers the params of block, tx, EVM and VM (a fresh Common
 * throws `Missing parameter value` until someone did), makes later registrations of those same
 * sets free (@ethereumjs re-merges them and rebuilds its param cache for every tx, header and VM
 * it creates: a third of seed building), answers isActivatedEIP from a Set, and plugs in native secp256k1 and keccak-256 unless it has its own.
 */
export function prepareCommon(common: Common): Common {
  if (prepared.has(common)) return common;
  prepared.add(common);
  const all = [paramsBlock, paramsTx, paramsEVM, paramsVM];
  for (const params of all) baseUpdateParams.call(common, params);
  for (const params of all) registered.add(params);
  common.updateParams = function (this: Common, params) {
    if (!registered.has(params)) baseUpdateParams.call(this, params);
  };
  common.isActivatedEIP = isActivatedEIPBySet;
  common.customCrypto.ecrecover ??= nativeEcrecover;
  common.customCrypto.ecsign ??= nativeEcsign;
  if (nativeKeccak256 !== undefined && common.customCrypto.keccak256 === undefined) common.customCrypto.keccak256 = nativeKeccak256;
  // Blob (type 3) transactions need a KZG even to be decoded; the real one loads on first use.
  common.customCrypto.kzg ??= lazyKzg;
  return common;
}
