/**
 * Whether the EVM fast path may run: only on the exact @ethereumjs versions it was written and tested against
 * (a patch release may change evm.ts and interpreter.ts by hundreds of lines while keeping the method names, and
 * would silently change results), and not when DEVGATE_EVM_FAST_PATH=0. Otherwise every EVM runs stock, after one
 * warning line for a version mismatch.
 */
import { packageVersion } from '../../../buildFacts.js';

/** The versions the fast path was tested with (the differential and stock-vs-fast tests pass on these). */
export const TESTED_VERSIONS: Readonly<Record<string, string>> = { '@ethereumjs/evm': '10.1.3', '@ethereumjs/vm': '10.1.3' };

export type Gate = { readonly on: true } | { readonly on: false; readonly why: string; readonly warn: boolean };

/** The decision for an environment and the installed versions (pure: tested as such). */
export function decide(env: Readonly<Record<string, string | undefined>>, installed: (name: string) => string): Gate {
  if (env.DEVGATE_EVM_FAST_PATH === '0') return { on: false, why: 'DEVGATE_EVM_FAST_PATH=0', warn: false };
  for (const [name, tested] of Object.entries(TESTED_VERSIONS)) {
    const have = installed(name);
    if (have !== tested) return { on: false, why: `${name} is ${have}, the EVM fast path was tested with ${tested}`, warn: true };
  }
  return { on: true };
}

/** This process's decision; a mismatch is said once on stderr. */
export const gate: Gate = decide(process.env, packageVersion);
if (!gate.on && gate.warn) console.warn(`devgate: the EVM fast path is off (${gate.why}); every EVM runs @ethereumjs's own code, slower`);
