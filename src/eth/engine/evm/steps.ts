/**
 * `step` events from the fast loop (loop.ts), for EVMs whose step listeners are all synchronous (one parameter:
 * @ethereumjs's `_emit` calls those without waiting; a two-parameter listener is awaited, and its frames run stock).
 * The event is Interpreter._runStepHook's for legacy code, field for field (pc, gas left, refund, the opcode's name,
 * fees and code, a copy of the stack, depth, address, account, a copy of memory before the opcode expands it, its
 * word count, code address, state manager, a PUSH's immediate bytes, a REVERT's data; the EOF fields undefined),
 * handed to each listener directly: no promise and no microtask per opcode, where the stock loop awaits `runStep`,
 * `_runStepHook` and `_emit` for each one. test/eth/engine/evm/fastSteps.test.ts holds the events equal to stock ones.
 *
 * A listener marked LEAN_STEPS reads none of memory's bytes, a PUSH's immediate or a REVERT's data (the struct logger
 * without enableMemory): when every listener is marked, those are left out (memory empty, `memoryWordCount` still
 * memory's size; `immediate` and `error` undefined), which spares one or two byte copies per opcode. A lean listener
 * may also carry a positional form (FLAT_STEP): alone, it is called with the fields instead of an event object.
 */
import { internals } from './modules.js';
import type { InterpreterLike, RunState } from './types.js';

type StepListener = (event: object) => void;

/** Marks a step listener that reads no memory bytes, PUSH immediates or REVERT data (see the module comment). */
export const LEAN_STEPS: unique symbol = Symbol('devgate.leanSteps');

/**
 * A lean listener's positional form, called in its place when it is the only listener: the fields a struct logger
 * reads, as the event would carry them (`stack` a copy, `depth` 0-based), without an event or opcode object per opcode.
 */
export const FLAT_STEP: unique symbol = Symbol('devgate.flatStep');
export type FlatStep = (
  pc: number,
  name: string,
  code: number,
  dynamicFee: bigint,
  gasLeft: bigint,
  gasRefund: bigint,
  stack: bigint[],
  depth: number,
  address: unknown,
  stateManager: unknown,
) => void;

const EMPTY = new Uint8Array(0);

interface StepRunState extends RunState {
  stack: { getStack(): bigint[]; peek(n: number): bigint[] };
  memory: { _store: Uint8Array; read(offset: number, size: number): Uint8Array };
  memoryWordCount: bigint;
  stateManager: unknown;
}

interface StepEnv {
  depth: number;
  address: unknown;
  contract: unknown;
  codeAddress: unknown;
  eof?: unknown;
}

interface OpInfo {
  name: string;
  fullName: string;
  fee: number;
  isAsync: boolean;
  code: number;
}

/** The EVM's step listeners when there are some and each is synchronous; else undefined. */
export function syncStepListeners(evm: InterpreterLike['_evm']): StepListener[] | undefined {
  const events = evm.events as unknown as { listenerCount(e: string): number; listeners(e: string): ((...a: unknown[]) => unknown)[] };
  if (events.listenerCount('step') === 0) return undefined;
  const listeners = events.listeners('step');
  return listeners.every((l) => l.length < 2) ? (listeners as StepListener[]) : undefined;
}

/** Immediate bytes per opcode (the EOF table @ethereumjs reads them from; PUSH1..PUSH32 in legacy code). */
const immediates = internals?.stackDelta;

/** Emits the step of the opcode at the program counter: `dynamicFee` its gas, `memoryWordCount` memory's size before it. */
export function emitStep(interpreter: InterpreterLike, listeners: readonly StepListener[], dynamicFee: bigint, memoryWordCount: bigint): void {
  const runState = interpreter._runState as StepRunState;
  const env = (interpreter as unknown as { _env: StepEnv })._env;
  const info = interpreter._evm._opcodeMap[runState.opCode]!.opcodeInfo as unknown as OpInfo;
  const pc = runState.programCounter;
  if (listeners.length === 1) {
    const flat = (listeners[0] as { [FLAT_STEP]?: FlatStep })[FLAT_STEP];
    if (flat !== undefined) {
      const { gasLeft, gasRefund, stateManager } = runState;
      flat(pc, info.fullName, info.code, dynamicFee, gasLeft, gasRefund, runState.stack.getStack(), env.depth, env.address, stateManager);
      return;
    }
  }
  let lean = true;
  for (const listener of listeners) if ((listener as { [LEAN_STEPS]?: boolean })[LEAN_STEPS] !== true) lean = false;
  // A lean event carries none of memory's bytes, a PUSH's immediate or a REVERT's data (no copies).
  let memory = EMPTY;
  let immediate: Uint8Array | undefined;
  let error: Uint8Array | undefined;
  if (!lean) {
    if (info.code === 0xfd) {
      const [offset, length] = runState.stack.peek(2) as [bigint, bigint];
      error = new Uint8Array(0);
      if (length !== 0n) error = runState.memory.read(Number(offset), Number(length));
    }
    const width = immediates?.[info.code]?.intermediates;
    if (width !== undefined && width > 0) immediate = runState.code.slice(pc + 1, pc + 1 + width);
    memory = runState.memory._store.slice(0, Number(memoryWordCount) * 32);
  }
  const event = {
    pc,
    gasLeft: runState.gasLeft,
    gasRefund: runState.gasRefund,
    opcode: { name: info.fullName, fee: info.fee, dynamicFee, isAsync: info.isAsync, code: info.code },
    stack: runState.stack.getStack(),
    depth: env.depth,
    address: env.address,
    account: env.contract,
    memory,
    memoryWordCount,
    codeAddress: env.codeAddress,
    stateManager: runState.stateManager,
    eofSection: undefined,
    immediate,
    error,
    eofFunctionDepth: undefined,
  };
  for (const listener of listeners) listener(event);
}
