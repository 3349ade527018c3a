/**
 * A faster path through @ethereumjs's EVM for the EVMs that opt in (`speedUpInterpreter`): call
 * VMs and the head VM of chains without a hardfork schedule. Other EVMs are untouched.
 *
 * - frame.ts: the call frame without V8's slow object spreads;
 * - loop.ts: the interpreter loop inline, awaiting only async gas and opcode handlers, and jump
 *   analysis kept per code object;
 * - opcodes.ts: opcode handlers without @ethereumjs's slow byte helpers and per-frame errors;
 * - gas.ts: dynamic-gas handlers of the commonest opcodes that answer without a promise;
 * - journalKeys.ts: the journal's warm-address and warm-slot keys made through Buffer.
 *
 * Each stands in only where it does exactly what @ethereumjs does, and hands anything unusual
 * (DEBUG, the profiler, step listeners, EOF, the EIPs it does not reproduce) to the stock methods.
 * Should @ethereumjs's internals fail to load, every EVM runs stock, only slower.
 */
import type { EVMInterface } from '@ethereumjs/evm';
import type { OpEntry } from './types.js';
import { patchFrame } from './frame.js';
import { patchInterpreter } from './loop.js';
import { replaceGasHandlers } from './gas.js';
import { replaceHandlers } from './opcodes.js';
import { optIn } from './optIn.js';
import { keyJournalByBuffer } from './journalKeys.js';
// Precompile failures in geth's words, for every EVM (precompiles.ts wraps EVM.prototype.runPrecompile on load).
import './precompiles.js';

/** True when the fast path is in place (for tests). */
export const interpreterPatched = patchInterpreter() && patchFrame();

/**
 * Opts `evm` into the fast path. Its hardfork must never change, and the code objects it runs must
 * never be changed in place (their jump analyses are kept).
 */
export function speedUpInterpreter(evm: EVMInterface): void {
  optIn(evm);
  if (!interpreterPatched) return;
  const opcodeMap = (evm as unknown as { _opcodeMap: OpEntry[] })._opcodeMap;
  replaceHandlers(opcodeMap);
  replaceGasHandlers(opcodeMap);
  keyJournalByBuffer((evm as unknown as { journal: object }).journal);
}
