/**
 * geth's tracing hooks (OnTxStart, OnEnter, OnExit, OnOpcode, OnTxEnd) made from @ethereumjs's EVM events
 * (`beforeMessage`, `afterMessage`, `newContract`, `step`), so each tracer is written as geth's is.
 *
 * - Frames: `beforeMessage`/`afterMessage` of every message, the transaction's own at depth 0. The opcode that made
 *   a frame is read from the message (CREATE2 has a salt, DELEGATECALL is flagged, CALLCODE runs other code at its
 *   own address); a static message under a non-static frame is a STATICCALL. With steps, the caller's last opcode
 *   names it exactly (a CALL made inside a STATICCALL frame is static too: without steps it shows as STATICCALL).
 * - Steps: only when a tracer asks for them. A synchronous `step` listener is fed by devgate's fast loop itself
 *   (src/eth/engine/evm/steps.ts: events as the stock interpreter builds them, lean ones without memory copies, or
 *   the fields as arguments for a FLAT_STEP listener); other listeners make the EVM run its stock loop. The gas cost of CALL, CALLCODE, DELEGATECALL and STATICCALL is geth's: the
 *   opcode's fee plus the gas it hands to the callee (EIP-150's all but one 64th).
 * - Frames @ethereumjs makes no message for (src/eth/engine/evm/frameHooks.ts): calls and creations that fail before
 *   they start (call depth, balance, nonce; geth's OnEnter/OnExit with gas used 0) and SELFDESTRUCT (gas 0, the
 *   contract's balance as value), with tracers that follow frames. Opcode-handler wrappers, not steps: no cost per opcode.
 * - Errors are worded as geth words them (core/vm/errors.go).
 */
import type { Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { hookFrames } from '../evm/frameHooks.js';
import { FLAT_STEP, LEAN_STEPS, type FlatStep } from '../evm/steps.js';
import { hasOwnCodeAddress, memoryBytes } from '../evm/message.js';
import { gethError, UNSTARTED } from './gethErrors.js';

/** What a tracer sees of a frame. */
export interface Frame {
  /** 0 for the transaction's own frame. */
  readonly depth: number;
  type: string;
  readonly from: Address;
  to?: Address;
  /** Whose storage and balance the frame's code works on (the caller's for DELEGATECALL and CALLCODE). */
  address?: Address;
  readonly input: Uint8Array;
  readonly gas: bigint;
  readonly value: bigint;
  readonly isStatic: boolean;
  /** The state the frame runs on. */
  readonly state: StepState;
  /** The return data of the last call this frame made (geth's evm.returnData). */
  returnData: Uint8Array;
  /** Whether its code ran a RETURN to its end (a creation failing after it could not pay its code deposit). */
  returned?: boolean;
  /** The last opcode this frame ran, and the stack height before it (with steps). */
  lastOp?: number;
  lastStackLength?: number;
}

export interface FrameEnd {
  readonly output: Uint8Array;
  readonly gasUsed: bigint;
  /** geth's wording; undefined on success. */
  readonly error?: string;
  /** @ethereumjs's own error text. */
  readonly evmError?: string;
  readonly reverted: boolean;
}

/** One opcode about to run (geth's OnOpcode arguments). */
export interface Step {
  readonly pc: number;
  readonly opcode: number;
  readonly op: string;
  /** Gas left before the opcode. */
  readonly gas: bigint;
  /** Its cost as geth counts it. */
  readonly cost: bigint;
  /** 1-based, as geth's struct logs count. */
  readonly depth: number;
  /** Bottom first (a copy). */
  readonly stack: readonly bigint[];
  /** Memory before the opcode expands it (a copy). */
  readonly memory: Uint8Array;
  readonly refund: bigint;
  readonly address: Address;
  readonly frame: Frame;
  readonly state: StepState;
}

/** State reads a tracer may make during a step (the state as it is at that point of the transaction). */
export interface StepState {
  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>;
  getAccount(address: Address): Promise<{ nonce: bigint; balance: bigint; codeHash: Uint8Array } | undefined>;
  getCode(address: Address): Promise<Uint8Array>;
}

export interface Tracer {
  /** Whether the tracer needs OnOpcode (steps). */
  readonly wantsSteps: boolean;
  /** Whether `step` may answer with a promise the EVM must wait for (state reads); sync steps are cheaper. */
  readonly asyncSteps?: boolean;
  /** false when `step` never reads the step's memory (its sync steps then come without memory's bytes: evm/steps.ts). */
  readonly stepMemory?: boolean;
  enter?(frame: Frame): void;
  exit?(frame: Frame, end: FrameEnd): void;
  step?(step: Step): void | Promise<void>;
  /**
   * `step` with its fields as arguments (no Step object per opcode), for a tracer with sync steps that reads no memory
   * (`stepMemory` false): called instead of `step` where the EVM's fast loop runs the frame.
   */
  flatStep?(
    pc: number,
    opcode: number,
    op: string,
    gas: bigint,
    cost: bigint,
    depth: number,
    stack: readonly bigint[],
    refund: bigint,
    address: Address,
    frame: Frame,
    state: StepState,
  ): void;
}

const EMPTY = new Uint8Array();

const CALLS = new Set([0xf1, 0xf2, 0xf4, 0xfa]);
/** Opcodes that end a frame (STOP, RETURN, REVERT, INVALID, SELFDESTRUCT). */
const HALTS = new Set([0x00, 0xf3, 0xfd, 0xfe, 0xff]);
const FRAME_OPS: Record<number, string> = { 240: 'CREATE', 241: 'CALL', 242: 'CALLCODE', 244: 'DELEGATECALL', 245: 'CREATE2', 250: 'STATICCALL' };

interface MessageLike {
  depth: number;
  caller: Address;
  to?: Address;
  codeAddress: Address;
  data: Uint8Array;
  gasLimit: bigint;
  value: bigint;
  isStatic: boolean;
  delegatecall: boolean;
  salt?: Uint8Array;
}
interface EndState {
  gasLeft: bigint;
  gasRefund: bigint;
  programCounter: number;
  stack?: { getStack(): bigint[] };
  memory?: object;
  memoryWordCount?: bigint;
}
interface ResultLike {
  execResult: { returnValue: Uint8Array; executionGasUsed: bigint; exceptionError?: { error: string }; runState?: EndState };
  createdAddress?: Address;
}
interface StepEvent {
  pc: number;
  gasLeft: bigint;
  gasRefund: bigint;
  opcode: { name: string; dynamicFee: bigint; code: number };
  stack: bigint[];
  depth: number;
  address: Address;
  memory: Uint8Array;
  stateManager: StepState;
}

/** Thrown from a listener to stop a run (the timeout); the EVM rethrows what is not an EVM error. */
export class TraceAborted extends Error {}

/**
 * Listens to `vm`'s EVM for one run: feeds `tracer` with frames and steps until `detach()`. `check` runs at each
 * frame and every 1,024 steps (the timeout).
 */
export function attach(vm: VM, tracer: Tracer, check: () => void): { frames: Frame[]; detach(): void } {
  const events = vm.evm.events as unknown as { on(e: string, f: (...a: never[]) => void): void; off(e: string, f: (...a: never[]) => void): void };
  const eip150 = vm.common.gteHardfork('tangerineWhistle');
  const homestead = vm.common.gteHardfork('homestead');
  const frames: Frame[] = [];
  let steps = 0;

  const before = (m: MessageLike) => {
    check();
    const parent = frames[frames.length - 1];
    const frame: Frame = {
      depth: m.depth,
      type: frameType(m, parent),
      // DELEGATECALL and CALLCODE frames come from the calling contract and go to the code they run, as geth shows them.
      from: m.delegatecall ? m.to! : m.caller,
      to: m.delegatecall || hasOwnCodeAddress(m) ? m.codeAddress : m.to,
      address: m.to,
      // A copy: a call's data is a view of its caller's memory, which changes afterwards.
      input: m.data === undefined ? new Uint8Array() : m.data.slice(),
      gas: m.gasLimit,
      value: m.value,
      isStatic: m.isStatic,
      state: vm.stateManager as unknown as StepState,
      returnData: new Uint8Array(),
    };
    frames.push(frame);
    tracer.enter?.(frame);
  };
  const created = (e: { address: Address }) => {
    const frame = frames[frames.length - 1];
    if (frame !== undefined && frame.to === undefined) frame.to = frame.address = e.address;
  };
  const after = (r: ResultLike) => {
    const frame = frames.pop();
    if (frame === undefined) return;
    const res = r.execResult;
    const end = res.runState;
    let evmError = res.exceptionError?.error;
    // From Homestead @ethereumjs words a code deposit the creation cannot pay as plain out of gas; geth names it.
    if (evmError === 'out of gas' && frame.type.startsWith('CREATE') && frame.returned === true) evmError = 'code store out of gas';
    // Code that runs off its end stops there: geth logs that STOP as an opcode of its own.
    if (tracer.wantsSteps && evmError === undefined && frame.lastOp !== undefined && !HALTS.has(frame.lastOp) && end?.stack !== undefined) {
      const words = Number(end.memoryWordCount ?? 0n);
      void tracer.step!({
        pc: end.programCounter,
        opcode: 0,
        op: 'STOP',
        gas: end.gasLeft,
        cost: 0n,
        depth: frame.depth + 1,
        stack: end.stack.getStack(),
        memory: end.memory === undefined ? new Uint8Array() : memoryBytes(end.memory, words * 32),
        refund: end.gasRefund,
        address: frame.address!,
        frame,
        state: vm.stateManager as unknown as StepState,
      });
    }
    const reverted = evmError === 'revert';
    const output = evmError === undefined || reverted ? (res.returnValue ?? new Uint8Array()) : new Uint8Array();
    const parent = frames[frames.length - 1];
    // geth's CREATE keeps return data only when the creation reverted.
    if (parent !== undefined) parent.returnData = frame.type.startsWith('CREATE') && !reverted ? new Uint8Array() : output;
    tracer.exit?.(frame, {
      output,
      gasUsed: res.executionGasUsed,
      evmError,
      error: evmError === undefined ? undefined : gethError(evmError, frame.lastOp, frame.lastStackLength),
      // Before Homestead a creation that cannot pay its code deposit keeps its account (geth: not reverted, no error).
      reverted: evmError !== undefined && (homestead || evmError !== 'code store out of gas'),
    });
  };
  const onStep = (e: StepEvent, resolve?: () => void) => {
    if ((++steps & 1023) === 0) check();
    const frame = frames[frames.length - 1]!;
    const code = e.opcode.code;
    frame.lastOp = code;
    frame.lastStackLength = e.stack.length;
    let cost = e.opcode.dynamicFee;
    if (CALLS.has(code)) cost += callGas(e.stack, e.gasLeft, e.opcode.dynamicFee, eip150);
    const step: Step = {
      pc: e.pc,
      opcode: code,
      op: e.opcode.name,
      gas: e.gasLeft,
      cost,
      depth: e.depth + 1,
      stack: e.stack,
      memory: e.memory,
      refund: e.gasRefund,
      address: e.address,
      frame,
      state: e.stateManager,
    };
    const done = tracer.step!(step);
    if (resolve === undefined) {
      if (done !== undefined) throw new Error('a tracer with sync steps answered with a promise');
      return;
    }
    if (done === undefined) resolve();
    else done.then(resolve, resolve);
  };
  // A listener with two parameters is awaited by the EVM (its state reads are async).
  const stepListener = (e: StepEvent, resolve: () => void) => onStep(e, resolve);

  events.on('beforeMessage', before as never);
  events.on('newContract', created as never);
  events.on('afterMessage', after as never);
  // Frames without a message (see the module comment), as children of the running frame.
  const bare = (type: string, from: Address, to: Address | undefined, input: Uint8Array, gas: bigint, value: bigint, end: FrameEnd) => {
    const parent = frames[frames.length - 1];
    if (parent === undefined) return;
    const frame: Frame = {
      depth: parent.depth + 1,
      type,
      from,
      to,
      address: to,
      input,
      gas,
      value,
      isStatic: parent.isStatic,
      state: parent.state,
      returnData: EMPTY,
    };
    tracer.enter?.(frame);
    tracer.exit?.(frame, end);
  };
  const unhook =
    tracer.enter === undefined && tracer.exit === undefined
      ? () => {}
      : hookFrames(vm, {
          unstarted: (f) => {
            bare(FRAME_OPS[f.op]!, f.from, f.to, f.input, f.gas, f.value, { output: EMPTY, gasUsed: f.gasUsed, error: UNSTARTED[f.why], reverted: true });
            const parent = frames[frames.length - 1];
            if (parent !== undefined) parent.returnData = EMPTY;
          },
          selfdestruct: (from, to, value) => bare('SELFDESTRUCT', from, to, EMPTY, 0n, value, { output: EMPTY, gasUsed: 0n, reverted: false }),
          returned: () => {
            const frame = frames[frames.length - 1];
            if (frame !== undefined) frame.returned = true;
          },
        });
  const syncListener = (e: StepEvent) => onStep(e);
  if (tracer.stepMemory === false) (syncListener as { [LEAN_STEPS]?: boolean })[LEAN_STEPS] = true;
  const flatStep = tracer.flatStep?.bind(tracer);
  if (tracer.stepMemory === false && !tracer.asyncSteps && flatStep !== undefined) {
    // onStep's work on the fast loop's positional fields (evm/steps.ts FLAT_STEP).
    const flat: FlatStep = (pc, name, code, dynamicFee, gasLeft, gasRefund, stack, depth, address, state) => {
      if ((++steps & 1023) === 0) check();
      const frame = frames[frames.length - 1]!;
      frame.lastOp = code;
      frame.lastStackLength = stack.length;
      const cost = CALLS.has(code) ? dynamicFee + callGas(stack, gasLeft, dynamicFee, eip150) : dynamicFee;
      flatStep(pc, code, name, gasLeft, cost, depth + 1, stack, gasRefund, address as Address, frame, state as StepState);
    };
    (syncListener as { [FLAT_STEP]?: FlatStep })[FLAT_STEP] = flat;
  }
  const listener = tracer.asyncSteps ? stepListener : syncListener;
  if (tracer.wantsSteps) events.on('step', listener as never);
  return {
    frames,
    detach() {
      events.off('beforeMessage', before as never);
      events.off('newContract', created as never);
      events.off('afterMessage', after as never);
      if (tracer.wantsSteps) events.off('step', listener as never);
      unhook();
    },
  };
}

/** The opcode that made the frame of message `m` (see the module comment). */
function frameType(m: MessageLike, parent: Frame | undefined): string {
  const byOp = parent?.lastOp === undefined ? undefined : FRAME_OPS[parent.lastOp];
  if (byOp !== undefined) return byOp;
  if (m.to === undefined) return m.salt !== undefined ? 'CREATE2' : 'CREATE';
  if (m.delegatecall) return 'DELEGATECALL';
  if (hasOwnCodeAddress(m)) return 'CALLCODE';
  if (m.isStatic && parent !== undefined) return 'STATICCALL';
  return 'CALL';
}

/** The gas a CALL-like opcode hands to its callee, without the stipend (geth's callGasTemp). */
function callGas(stack: readonly bigint[], gasLeft: bigint, dynamicFee: bigint, eip150: boolean): bigint {
  const asked = stack[stack.length - 1] ?? 0n;
  if (!eip150) return asked;
  const available = gasLeft - dynamicFee;
  if (available < 0n) return asked;
  const most = available - available / 64n;
  return asked < most ? asked : most;
}
