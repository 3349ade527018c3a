/**
 * The interpreter loop of opted-in EVMs. @ethereumjs's Interpreter.run awaits an async `runStep`
 * per opcode (a promise and a microtask each, ~126 of them for an ERC-20 balanceOf); this loop runs
 * the same steps inline (the static fee, the dynamic-gas handler, the invalid-opcode check, the
 * charge, pc++, the EIP-7928 post-call hook, the handler, the access-witness commit) and awaits
 * only where a handler answers with a promise (async gas and opcode handlers; gas.ts's do not). Its
 * errors, STOP and REVERT handling and its result are those of Interpreter.run.
 *
 * It stands in only where runStep does nothing more: legacy (non-EOF) code, no `step` listener but
 * synchronous ones (steps.ts emits their events as _runStepHook does, without its promises), no
 * DEBUG, no profiler, no code-chunk charging (EIPs 6800/7864), run from its start. Anything else
 * runs stock.
 *
 * Jump analysis (valid JUMPDESTs, PUSH values, the entry of every opcode) is kept per code object:
 * it depends only on the code and the EVM's opcode table. The code objects an opted-in EVM runs
 * must never be changed in place, and its hardfork must not change (its opcode table would).
 */
import { EVMError } from '@ethereumjs/evm';
import { clockOfEvm, HEAVY, tick, workOf } from './callClock.js';
import { gasWatchOf } from './gasWatch.js';
import { internals } from './modules.js';
import { quietEnd } from './opcodes.js';
import { isOptedIn, jumpAnalyses } from './optIn.js';
import { emitStep, syncStepListeners } from './steps.js';
import type { EvmErrorLike, InterpreterLike, InterpreterResult, OpEntry, RunState } from './types.js';

const { STOP, INVALID_OPCODE, OUT_OF_GAS } = EVMError.errorMessages;
const EVM_ERROR_TYPE = new EVMError(STOP).errorType;

/** Work units of a traced step beyond the opcode's own, plus one per 8 KB of memory (callClock.ts counts the units). */
const TRACED_STEP_UNITS = 3;

/** Frames the fast loop ran, and those of them with step listeners (for tests). */
export const fastLoopRuns = { frames: 0, stepped: 0 };

const isEvmError = (e: unknown): e is EvmErrorLike =>
  typeof e === 'object' && e !== null && 'errorType' in e && (e as EvmErrorLike).errorType === EVM_ERROR_TYPE;

/** True when runStep would do nothing but what `fastRun` does (with `steps`: the frame's synchronous step listeners). */
function plainFrame(interpreter: InterpreterLike, code: Uint8Array, opts: { pc?: number }, steps: unknown[] | undefined): boolean {
  const evm = interpreter._evm;
  const common = interpreter.common;
  return (
    opts.pc === undefined &&
    !evm.DEBUG &&
    interpreter.profilerOpts?.enabled !== true &&
    (steps !== undefined || evm.events.listenerCount('step') === 0) &&
    !common.isActivatedEIP(6800) &&
    !common.isActivatedEIP(7864) &&
    !(code[0] === 0xef && common.isActivatedEIP(3540))
  );
}

/** Interpreter.run and runStep for legacy code, inline (see the module comment); `steps`: listeners of each step. */
async function fastRun(interpreter: InterpreterLike, code: Uint8Array, steps?: Parameters<typeof emitStep>[1]): Promise<InterpreterResult> {
  const runState: RunState = interpreter._runState;
  const common = interpreter.common;
  fastLoopRuns.frames++;
  if (steps !== undefined) fastLoopRuns.stepped++;
  const opcodeMap = interpreter._evm._opcodeMap;
  const consumePostCallOog = internals!.consumeEip7928PostTargetCallOog;
  // The call's clock (callClock.ts), checked by work done: a unit per opcode, the gas of heavy ones.
  const clock = clockOfEvm(interpreter._evm);
  // An estimate's first run watches its gas (gasWatch.ts): one frame, and the least gas left after any step.
  const watch = gasWatchOf(interpreter._evm);
  if (watch !== undefined && ++watch.frames > 1) watch.gasDependent = true;
  runState.code = code;
  let err: EvmErrorLike | undefined;
  let cachedOpcodes: OpEntry[] | undefined;
  while (runState.programCounter < code.length) {
    const pc = runState.programCounter;
    let entry: OpEntry;
    if (cachedOpcodes === undefined) {
      const opCode = code[pc]!;
      // As run(): analyse the code when it first jumps; until then, opcodes come from the table.
      if (opCode === 0x56 || opCode === 0x57 || opCode === 0x5e) {
        const { jumps, pushes, opcodesCached } = interpreter._getValidJumpDestinations(code);
        runState.validJumps = jumps;
        runState.cachedPushes = pushes;
        runState.shouldDoJumpAnalysis = false;
        cachedOpcodes = opcodesCached;
      }
      runState.opCode = opCode;
      entry = opcodeMap[opCode]!;
    } else {
      entry = cachedOpcodes[pc]!;
      runState.opCode = entry.opcodeInfo.code;
    }
    try {
      const info = entry.opcodeInfo;
      let gas = info.feeBigInt;
      // As runStep: a step sees memory's size before the opcode's gas handler expands it.
      const memoryWords = steps === undefined ? 0n : (runState as unknown as { memoryWordCount: bigint }).memoryWordCount;
      if (watch !== undefined) {
        if (watch.reads[info.code] === 1) watch.gasDependent = true;
        // SSTORE fails with the sentry's gas or less left (EIP-2200), before its charge.
        if (info.code === 0x55 && watch.sentry !== undefined && runState.gasLeft - watch.sentry - 1n < watch.least)
          watch.least = runState.gasLeft - watch.sentry - 1n;
      }
      if (info.dynamicGas) {
        // gas.ts's handlers answer with the gas itself, @ethereumjs's with a promise of it.
        try {
          const charged = entry.gasHandler(runState, gas, common) as Promise<bigint> | bigint;
          gas = typeof charged === 'bigint' ? charged : await charged;
        } catch (e) {
          // As runStep: a gas handler's EVM error is stepped first (with the static fee), then thrown.
          if (steps !== undefined && isEvmError(e)) emitStep(interpreter, steps, gas, memoryWords);
          throw e;
        }
      }
      if (steps !== undefined) emitStep(interpreter, steps, gas, memoryWords);
      if (info.isInvalid) throw new EVMError(INVALID_OPCODE);
      // Interpreter.useGas without its DEBUG line.
      runState.gasLeft -= gas;
      if (runState.gasLeft < 0n) {
        runState.gasLeft = 0n;
        throw new EVMError(OUT_OF_GAS);
      }
      if (watch !== undefined && runState.gasLeft < watch.least) watch.least = runState.gasLeft;
      runState.programCounter++;
      if (runState.eip7928PostTargetCallOog !== undefined) consumePostCallOog(runState);
      if (info.code === 0x00 || info.code === 0xf3) {
        // The replaced STOP and RETURN end the frame here, as the catch below does with their STOP, without a throw.
        const end = quietEnd(entry.opHandler);
        if (end !== undefined) {
          end(runState);
          runState.env.accessWitness?.revert();
          break;
        }
      }
      // An async handler is awaited only when it answers with a promise: the call clock's JUMP/JUMPI are marked
      // async (evm/callClock.ts) but answer with one only when they yield, every few ms.
      const done = entry.opHandler(runState, common) as Promise<void> | undefined;
      if (info.isAsync && done !== undefined && typeof done.then === 'function') await done;
      runState.env.accessWitness?.commit();
      if (clock !== undefined) {
        const heavy = HEAVY[info.code]!;
        let units = heavy === 0 ? 1 : workOf(heavy, gas);
        // A traced step is a tracer's work too: an event, its stack copy and, with memory, a copy of memory.
        if (steps !== undefined) units += TRACED_STEP_UNITS + Number(memoryWords >> 8n);
        if ((clock.credit -= units) <= 0) {
          const wait = tick(clock);
          if (wait !== undefined) await wait;
        }
      }
    } catch (e) {
      runState.env.accessWitness?.revert();
      // As run(): rethrow what is not an EVM error; STOP ends the frame without one.
      if (!isEvmError(e)) throw e;
      if ((e as EvmErrorLike).error !== STOP) err = e as EvmErrorLike;
      break;
    }
  }
  if (err === undefined && runState.eip8037BurnLeftoverAfterCreateHaltOntoAlive === true && runState.gasLeft > 0n) {
    runState.gasLeft = 0n;
    err = new EVMError(OUT_OF_GAS);
  }
  return { runState, exceptionError: err };
}

/** Patches Interpreter.prototype for opted-in EVMs; false when the Interpreter could not be loaded. */
export function patchInterpreter(): boolean {
  if (internals === undefined) return false;
  const proto = internals.Interpreter.prototype;
  const analyse = proto._getValidJumpDestinations;
  proto._getValidJumpDestinations = function (this: InterpreterLike, code: Uint8Array) {
    const cache = jumpAnalyses(this._evm);
    if (cache === undefined) return analyse.call(this, code);
    let analysis = cache.get(code);
    if (analysis === undefined) cache.set(code, (analysis = analyse.call(this, code)));
    return analysis;
  };
  const run = proto.run;
  proto.run = function (this: InterpreterLike, code: Uint8Array, opts: { pc?: number } = {}) {
    if (isOptedIn(this._evm)) {
      const steps = syncStepListeners(this._evm);
      if (plainFrame(this, code, opts, steps)) return fastRun(this, code, steps);
    }
    // A frame the fast loop does not run is not watched: its gas may matter.
    const watch = gasWatchOf(this._evm);
    if (watch !== undefined) watch.gasDependent = true;
    return run.call(this, code, opts);
  };
  return true;
}
