/** Which EVMs take the fast path, and the jump analyses each keeps per code object. */
import type { JumpAnalysis } from './types.js';

const analysesByEvm = new WeakMap<object, WeakMap<Uint8Array, JumpAnalysis>>();

/** Opts `evm` in (see index.ts). */
export function optIn(evm: object): void {
  if (!analysesByEvm.has(evm)) analysesByEvm.set(evm, new WeakMap());
}

export function isOptedIn(evm: object): boolean {
  return analysesByEvm.has(evm);
}

/** The jump analyses of an opted-in EVM, by code object; undefined for any other EVM. */
export function jumpAnalyses(evm: object): WeakMap<Uint8Array, JumpAnalysis> | undefined {
  return analysesByEvm.get(evm);
}
