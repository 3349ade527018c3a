/**
 * What devgate reads inside @ethereumjs's Common (`common/dist/esm/common.js`): the list of active EIPs it caches
 * per hardfork (`_activatedEIPsCache`, for a faster isActivatedEIP) and the chain's own parameters (`_chainParams`).
 */
import type { Common } from '@ethereumjs/common';

interface EipCache {
  _activatedEIPsCache: number[];
  _devgateEipList?: readonly number[];
  _devgateEipSet?: Set<number>;
}

/** A Set of each list of active EIPs a Common computed (it builds a new list when its hardfork changes). */
const eipSets = new WeakMap<readonly number[], Set<number>>();

/**
 * Common.isActivatedEIP through a Set (install it as a Common's own `isActivatedEIP`): Common's own scans its list
 * of some 50 EIPs, and the EVM asks several times per opcode (a tenth of an eth_call). Same answers: the Set is of
 * that very list.
 */
export function isActivatedEIPBySet(this: Common, eip: number): boolean {
  const self = this as unknown as EipCache;
  const list = self._activatedEIPsCache;
  // The Set of the list last asked about, kept on the Common itself: no WeakMap lookup on the EVM's hot path.
  if (self._devgateEipList === list) return self._devgateEipSet!.has(eip);
  let set = eipSets.get(list);
  if (set === undefined) eipSets.set(list, (set = new Set(list)));
  self._devgateEipList = list;
  self._devgateEipSet = set;
  return set.has(eip);
}

/** The deposit contract address of the chain's own parameters (undefined when they name none). */
export function chainDepositContract(common: Common): string | undefined {
  return (common as unknown as { _chainParams?: { depositContractAddress?: string } })._chainParams?.depositContractAddress;
}
