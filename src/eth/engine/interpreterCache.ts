/**
 * Two per-frame costs of @ethereumjs's Interpreter that an EVM may opt out of (`speedUpInterpreter`;
 * other EVMs are untouched):
 *
 * - Jump-destination analysis: each frame scans its whole code (valid JUMPDESTs, PUSH values, the
 *   opcode of every byte) when it first jumps, about a tenth of an ERC-20 balanceOf call. It depends
 *   only on the code and the EVM's own opcode table, so it is kept per code object; the code objects
 *   such an EVM runs must never be changed in place (the call states of callState.ts hand out one
 *   shared, never-written object per code hash).
 * - The frame's result: EVM.runInterpreter merges the interpreter's run state, result and
 *   environment into `execResult.runState` with object spreads, which Node 20's V8 runs on a slow
 *   path (~50-200 us per frame for these ~40 properties). @ethereumjs itself reads only gasLeft,
 *   gasRefund and stateGasSpilled from it, so the interpreter hands back just those, and
 *   `execResult.runState` of such an EVM holds no more (nothing in devgate reads it).
 *
 * The Interpreter class is not exported by @ethereumjs/evm, so its module is loaded by path from the
 * package's own ESM build (the very module the EVM imports). Should that fail, nothing is cached.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EVMInterface } from '@ethereumjs/evm';

interface RunResult {
  runState: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled: bigint };
  exceptionError?: unknown;
}

interface InterpreterLike {
  _evm: object;
  _env: object;
  _getValidJumpDestinations(code: Uint8Array): unknown;
  run(code: Uint8Array, opts?: object): Promise<RunResult>;
}

/** The jump analyses of each opted-in EVM, by code object. */
const perEvm = new WeakMap<object, WeakMap<Uint8Array, unknown>>();

async function loadInterpreterPrototype(): Promise<InterpreterLike | undefined> {
  try {
    // dist/cjs/index.js -> dist/esm/interpreter.js
    const cjsIndex = createRequire(import.meta.url).resolve('@ethereumjs/evm');
    const url = pathToFileURL(join(dirname(dirname(cjsIndex)), 'esm', 'interpreter.js')).href;
    const mod = (await import(url)) as { Interpreter?: { prototype: InterpreterLike } };
    const proto = mod.Interpreter?.prototype;
    return typeof proto?._getValidJumpDestinations === 'function' && typeof proto.run === 'function' ? proto : undefined;
  } catch {
    return undefined;
  }
}

const proto = await loadInterpreterPrototype();
if (proto !== undefined) {
  const analyse = proto._getValidJumpDestinations;
  proto._getValidJumpDestinations = function (this: InterpreterLike, code: Uint8Array) {
    const cache = perEvm.get(this._evm);
    if (cache === undefined) return analyse.call(this, code);
    let analysis = cache.get(code);
    if (analysis === undefined) cache.set(code, (analysis = analyse.call(this, code)));
    return analysis;
  };
  const run = proto.run;
  proto.run = async function (this: InterpreterLike, code: Uint8Array, opts?: object): Promise<RunResult> {
    const res = await run.call(this, code, opts);
    if (!perEvm.has(this._evm)) return res;
    const { gasLeft, gasRefund, stateGasSpilled } = res.runState;
    // Read by nothing once run() returns but the spreads of EVM.runInterpreter.
    this._env = {};
    return { runState: { gasLeft, gasRefund, stateGasSpilled }, exceptionError: res.exceptionError };
  };
}

/** True when the Interpreter could be patched (for tests). */
export const interpreterPatched = proto !== undefined;

/** Makes `evm` keep the jump analysis of each code object it runs and hand back lean frame results (see the module comment). */
export function speedUpInterpreter(evm: EVMInterface): void {
  perEvm.set(evm, new WeakMap());
}
