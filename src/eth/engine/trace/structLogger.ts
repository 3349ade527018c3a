/**
 * geth's struct logger (eth/tracers/logger/logger.go): one entry per opcode with pc, op, gas left, its cost, depth,
 * refund counter, and by option the stack, memory, return data and, at SLOAD and SSTORE, the contract's storage
 * seen so far in the transaction (SLOAD reads the slot's current value, SSTORE takes the one it writes).
 *
 * An opcode that fails before it runs (out of gas, stack underflow or overflow) carries geth's `error` on its entry;
 * failures while it runs do not (geth reports those to OnFault, which the logger ignores).
 */
import { bigIntToBytes, setLengthLeft, type Address } from '@ethereumjs/util';
import type { FrameEnd, Frame, Step, StepState, Tracer } from './hooks.js';
import type { StructLogEntry, StructLoggerOptions, StructResult } from './types.js';

const SLOAD = 0x54;
const SSTORE = 0x55;
/**
 * Most entries a trace keeps without a `limit` (a gas-cap loop would otherwise fill the process's memory): past it
 * the trace stops with TraceTooLarge. geth has no such bound; its entries are smaller.
 */
export const MAX_STRUCT_LOGS = 300_000;
/** The shortest JSON a struct log entry can have (`{"pc":0,"op":"LT","gas":0,"gasCost":0,"depth":1}` is 47 bytes). */
const MIN_ENTRY_BYTES = 40;

/** Thrown from a step when a trace without a limit passes MAX_STRUCT_LOGS entries. */
export class TraceTooLarge extends Error {}

/** Failures geth meets before logging the opcode. */
const BEFORE_LOGGING = new Set(['out of gas', 'stack underflow', 'stack overflow']);

export class StructLogger implements Tracer {
  readonly wantsSteps = true;
  readonly asyncSteps = false;
  /** Memory is read only for enableMemory (without it, step events leave memory's bytes out). */
  readonly stepMemory: boolean;
  private readonly logs: StructLogEntry[] = [];
  /** Storage seen per contract, by address text. */
  private readonly storage = new Map<string, Map<bigint, bigint>>();
  /** The last entry of each open frame, by depth. */
  private readonly lastOfFrame: (StructLogEntry | undefined)[] = [];
  private output: Uint8Array = new Uint8Array();
  /** An SLOAD whose value the next opcode of its frame finds on top of the stack. */
  private load: { entry: StructLogEntry; address: Address; slot: bigint; depth: number } | undefined;
  /** Reads of SLOADs whose frame ended before the next opcode (it failed). */
  private readonly reads: Promise<void>[] = [];
  private evmError: string | undefined;

  /** Entries worth keeping: with a `limit` (bytes), no entry past limit / MIN_ENTRY_BYTES can be shown. */
  private readonly most: number;

  constructor(private readonly opts: StructLoggerOptions) {
    this.stepMemory = opts.enableMemory;
    this.most = opts.limit > 0 ? Math.min(MAX_STRUCT_LOGS, Math.floor(opts.limit / MIN_ENTRY_BYTES) + 1) : MAX_STRUCT_LOGS;
  }

  enter(frame: Frame): void {
    this.lastOfFrame[frame.depth] = undefined;
  }

  exit(frame: Frame, end: FrameEnd): void {
    const load = this.load;
    if (load !== undefined && load.depth === frame.depth + 1) {
      this.load = undefined;
      // CallState and MerkleStateManager read the value when called: the state as the SLOAD saw it.
      this.reads.push(
        frame.state
          .getStorage(load.address, setLengthLeft(bigIntToBytes(load.slot), 32))
          .then((v) => this.loaded(load, v.length === 0 ? 0n : BigInt('0x' + Buffer.from(v).toString('hex')))),
      );
    }
    const last = this.lastOfFrame[frame.depth];
    if (last !== undefined && end.evmError !== undefined && BEFORE_LOGGING.has(end.evmError)) last.error = end.error;
    if (frame.depth === 0) {
      this.output = end.output;
      this.evmError = end.evmError;
    }
  }

  step(s: Step): void {
    this.flatStep(s.pc, s.opcode, s.op, s.gas, s.cost, s.depth, s.stack, s.refund, s.address, s.frame, s.state, s.memory);
  }

  flatStep(
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
    _state: StepState,
    memory?: Uint8Array,
  ): void {
    const { opts } = this;
    const load = this.load;
    if (load !== undefined && load.depth === depth) {
      this.load = undefined;
      this.loaded(load, stack[stack.length - 1] ?? 0n);
    }
    if (this.logs.length >= this.most) {
      if (opts.limit > 0) return;
      throw new TraceTooLarge();
    }
    const entry: { -readonly [K in keyof StructLogEntry]: StructLogEntry[K] } = { pc, op, gas, gasCost: cost, depth, refund };
    if (!opts.disableStack) entry.stack = stack;
    if (opts.enableMemory && memory !== undefined && memory.length > 0) entry.memory = memory;
    if (opts.enableReturnData && frame.returnData.length > 0) entry.returnData = frame.returnData;
    this.logs.push(entry);
    this.lastOfFrame[depth - 1] = entry;
    if (opts.disableStorage || (opcode !== SLOAD && opcode !== SSTORE)) return;
    const n = stack.length;
    if (opcode === SSTORE && n >= 2) {
      const seen = this.seen(address);
      seen.set(stack[n - 1]!, stack[n - 2]!);
      entry.storage = new Map(seen);
    } else if (opcode === SLOAD && n >= 1) {
      this.load = { entry, address, slot: stack[n - 1]!, depth };
    }
  }

  /** An SLOAD's value, known: the contract's storage seen so far goes on its entry. */
  private loaded(load: NonNullable<StructLogger['load']>, value: bigint): void {
    const seen = this.seen(load.address);
    seen.set(load.slot, value);
    (load.entry as { storage?: ReadonlyMap<bigint, bigint> }).storage = new Map(seen);
  }

  /** Waits for the reads still under way. */
  async settle(): Promise<void> {
    await Promise.all(this.reads);
  }

  private seen(address: Address): Map<bigint, bigint> {
    const key = address.toString();
    let seen = this.storage.get(key);
    if (seen === undefined) this.storage.set(key, (seen = new Map()));
    return seen;
  }

  /** The result, given the gas the transaction used. */
  result(gasUsed: bigint): StructResult {
    const failed = this.evmError !== undefined;
    return {
      kind: 'structLogger',
      gas: gasUsed,
      failed,
      // The output when it succeeded or reverted; nothing after any other failure.
      returnValue: failed && this.evmError !== 'revert' ? new Uint8Array() : this.output,
      logs: this.logs,
      limit: this.opts.limit,
    };
  }
}
