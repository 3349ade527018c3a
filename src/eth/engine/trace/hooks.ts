/**
 * geth's tracing hooks (OnTxStart, OnEnter, OnExit, OnOpcode, OnTxEnd) made from @ethereumjs's EVM events
 * (`beforeMessage`, `afterMessage`, `newContract`, `step`), so each tracer is written as geth's is.
 *
 * - Frames: `beforeMessage`/`afterMessage` of every message, the transaction's own at depth 0. The opcode that made
 *   a frame is read from the message (CREATE2 has a salt, DELEGATECALL is flagged, CALLCODE runs other code at its
 *   own address); a static message under a non-static frame is a STATICCALL. With steps, the caller's last opcode
 *   names it exactly (a CALL made inside a STATICCALL frame is static too: without steps it shows as STATICCALL).
 * - Steps: only when a tracer asks for them (a `step` listener makes the EVM run its stock interpreter loop, see
 *   src/eth/engine/evm/loop.ts). The gas cost of CALL, CALLCODE, DELEGATECALL and STATICCALL is geth's: the
 *   opcode's fee plus the gas it hands to the callee (EIP-150's all but one 64th).
 * - Errors are worded as geth words them (core/vm/errors.go).
 */
import type { Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

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
  enter?(frame: Frame): void;
  exit?(frame: Frame, end: FrameEnd): void;
  step?(step: Step): void | Promise<void>;
}

/** @ethereumjs's error texts, as geth words them. */
const GETH_ERRORS: Record<string, string> = {
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  'stack overflow': 'stack overflow',
  'invalid JUMP': 'invalid jump destination',
  'value out of range': 'return data out of bounds',
  revert: 'execution reverted',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
};

/** Stack items each opcode takes (geth's minStack), for its stack underflow text. */
function stackInputs(op: number): number | undefined {
  if (op >= 0x80 && op <= 0x8f) return op - 0x7f;
  if (op >= 0x90 && op <= 0x9f) return op - 0x8e;
  if (op >= 0xa0 && op <= 0xa4) return op - 0x9e;
  return INPUTS[op];
}
const INPUTS: Record<number, number> = {
  1: 2,
  2: 2,
  3: 2,
  4: 2,
  5: 2,
  6: 2,
  7: 2,
  8: 3,
  9: 3,
  10: 2,
  11: 2,
  16: 2,
  17: 2,
  18: 2,
  19: 2,
  20: 2,
  21: 1,
  22: 2,
  23: 2,
  24: 2,
  25: 1,
  26: 2,
  27: 2,
  28: 2,
  29: 2,
  30: 1,
  32: 2,
  49: 1,
  53: 1,
  55: 3,
  57: 3,
  59: 1,
  60: 4,
  62: 3,
  63: 1,
  64: 1,
  73: 1,
  80: 1,
  81: 1,
  82: 2,
  83: 2,
  84: 1,
  85: 2,
  86: 1,
  87: 2,
  92: 1,
  93: 2,
  94: 3,
  240: 3,
  241: 7,
  242: 7,
  243: 2,
  244: 6,
  245: 4,
  250: 6,
  253: 2,
  255: 1,
};

/** geth's text of an EVM error; the frame's last opcode names an invalid opcode and counts a stack underflow. */
export function gethError(evmError: string, lastOp?: number, stackLength?: number): string {
  if (evmError === 'invalid opcode')
    return `invalid opcode: ${lastOp === undefined || lastOp === 0xfe ? 'INVALID' : `opcode 0x${lastOp.toString(16)} not defined`}`;
  if (evmError === 'stack underflow' && lastOp !== undefined && stackLength !== undefined) {
    const wants = stackInputs(lastOp);
    if (wants !== undefined && stackLength < wants) return `stack underflow (${stackLength} <=> ${wants})`;
  }
  return GETH_ERRORS[evmError] ?? evmError;
}

const CALLS = new Set([0xf1, 0xf2, 0xf4, 0xfa]);
/** Opcodes that end a frame (STOP, RETURN, REVERT, INVALID, SELFDESTRUCT). */
const HALTS = new Set([0x00, 0xf3, 0xfd, 0xfe, 0xff]);
const FRAME_OPS: Record<number, string> = { 240: 'CREATE', 241: 'CALL', 242: 'CALLCODE', 244: 'DELEGATECALL', 245: 'CREATE2', 250: 'STATICCALL' };

interface MessageLike {
  depth: number;
  caller: Address;
  to?: Address;
  _codeAddress?: Address;
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
  memory?: { _store: Uint8Array };
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
      to: m.delegatecall || m._codeAddress !== undefined ? m.codeAddress : m.to,
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
    const evmError = res.exceptionError?.error;
    // Code that runs off its end stops there: geth logs that STOP as an opcode of its own.
    const end = res.runState;
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
        memory: end.memory === undefined ? new Uint8Array() : end.memory._store.slice(0, words * 32),
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
      reverted: evmError !== undefined,
    });
  };
  const onStep = (e: StepEvent, resolve?: () => void) => {
    if ((++steps & 1023) === 0) check();
    const frame = frames[frames.length - 1]!;
    const code = e.opcode.code;
    frame.lastOp = code;
    frame.lastStackLength = e.stack.length;
    let cost = e.opcode.dynamicFee;
    if (CALLS.has(code)) cost += callGas(e, eip150);
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
  const syncListener = (e: StepEvent) => onStep(e);
  const listener = tracer.asyncSteps ? stepListener : syncListener;
  if (tracer.wantsSteps) events.on('step', listener as never);
  return {
    frames,
    detach() {
      events.off('beforeMessage', before as never);
      events.off('newContract', created as never);
      events.off('afterMessage', after as never);
      if (tracer.wantsSteps) events.off('step', listener as never);
    },
  };
}

/** The opcode that made the frame of message `m` (see the module comment). */
function frameType(m: MessageLike, parent: Frame | undefined): string {
  const byOp = parent?.lastOp === undefined ? undefined : FRAME_OPS[parent.lastOp];
  if (byOp !== undefined) return byOp;
  if (m.to === undefined) return m.salt !== undefined ? 'CREATE2' : 'CREATE';
  if (m.delegatecall) return 'DELEGATECALL';
  if (m._codeAddress !== undefined) return 'CALLCODE';
  if (m.isStatic && parent !== undefined) return 'STATICCALL';
  return 'CALL';
}

/** The gas a CALL-like opcode hands to its callee, without the stipend (geth's callGasTemp). */
function callGas(e: StepEvent, eip150: boolean): bigint {
  const asked = e.stack[e.stack.length - 1] ?? 0n;
  if (!eip150) return asked;
  const available = e.gasLeft - e.opcode.dynamicFee;
  if (available < 0n) return asked;
  const most = available - available / 64n;
  return asked < most ? asked : most;
}
