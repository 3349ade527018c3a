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
import { bytesHex } from '../../../hex.js';

const SLOAD = 0x54;
const SSTORE = 0x55;
/**
 * The bytes a trace's struct logs may take (issue 25), counted as they are logged: each entry, its stack, memory, return
 * data and storage map (every copy: an SLOAD or SSTORE entry carries the contract's whole storage seen so far), at what
 * the entry holds in memory plus what its JSON takes. Past it the trace stops with TraceTooLarge, answered -32005
 * naming the limit (`--max-trace-bytes`, `maxTraceBytes`). geth has no such bound (a gas-cap loop with memory fills
 * its memory); 256 MB keeps a refused trace's peak under 1 GB of RSS and holds every real trace we met (a 300,000-opcode
 * trace with stacks of ~10 words takes ~100 MB).
 */
export const DEFAULT_MAX_TRACE_BYTES = 256 * 1024 * 1024;
/** An entry's object, its three bigints and its slot in the list, with its JSON's fixed fields (pc, op, gas, ...). */
const ENTRY_BYTES = 160;
/** A stack word: its slot in the copied stack, and its JSON (`"0x…",`) for a small word or a full one. */
const SMALL_WORD_BYTES = 8 + 13;
const WORD_BYTES = 8 + 69;
const SMALL_WORD = 0xffffffffn;
/** A storage map entry: the Map's entry, and its JSON (`"<64 hex>":"<64 hex>",`). */
const STORAGE_ENTRY_BYTES = 80 + 134;
/** Memory and return data: the copy, and its JSON (hex, two characters a byte, plus quotes and commas). */
const BYTES_PER_BYTE = 3;
/** The shortest JSON a struct log entry can have (`{"pc":0,"op":"LT","gas":0,"gasCost":0,"depth":1}` is 47 bytes). */
const MIN_ENTRY_BYTES = 40;

/** Thrown from a step (or once the trace ends) when the struct logs pass the trace's byte budget. */
export class TraceTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`trace too large: the struct logs would take more than ${maxBytes} bytes`);
  }
}

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
  /** The bytes the logs take so far (see DEFAULT_MAX_TRACE_BYTES). */
  private bytes = 0;

  /** `maxBytes`: the byte budget of the logs (DEFAULT_MAX_TRACE_BYTES unless the gateway was given another). */
  constructor(
    private readonly opts: StructLoggerOptions,
    readonly maxBytes = DEFAULT_MAX_TRACE_BYTES,
  ) {
    this.stepMemory = opts.enableMemory;
    this.most = opts.limit > 0 ? Math.floor(opts.limit / MIN_ENTRY_BYTES) + 1 : Infinity;
  }

  /** The bytes the logs take so far. */
  get size(): number {
    return this.bytes;
  }

  enter(frame: Frame): void {
    this.lastOfFrame[frame.depth] = undefined;
  }

  exit(frame: Frame, end: FrameEnd): void {
    const load = this.load;
    if (load !== undefined && load.depth === frame.depth + 1) {
      this.load = undefined;
      // OverlayState and MerkleStateManager read the value when called: the state as the SLOAD saw it.
      this.reads.push(
        frame.state
          .getStorage(load.address, setLengthLeft(bigIntToBytes(load.slot), 32))
          .then((v) => this.loaded(load, v.length === 0 ? 0n : BigInt(bytesHex(v)))),
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
    if (this.logs.length >= this.most) return;
    if (this.bytes > this.maxBytes) throw new TraceTooLarge(this.maxBytes);
    const entry: { -readonly [K in keyof StructLogEntry]: StructLogEntry[K] } = { pc, op, gas, gasCost: cost, depth, refund };
    let bytes = ENTRY_BYTES;
    if (!opts.disableStack) {
      entry.stack = stack;
      for (let i = 0; i < stack.length; i++) bytes += stack[i]! <= SMALL_WORD ? SMALL_WORD_BYTES : WORD_BYTES;
    }
    if (opts.enableMemory && memory !== undefined && memory.length > 0) {
      entry.memory = memory;
      bytes += memory.length * BYTES_PER_BYTE;
    }
    if (opts.enableReturnData && frame.returnData.length > 0) {
      entry.returnData = frame.returnData;
      bytes += frame.returnData.length * BYTES_PER_BYTE;
    }
    this.bytes += bytes;
    this.logs.push(entry);
    this.lastOfFrame[depth - 1] = entry;
    if (opts.disableStorage || (opcode !== SLOAD && opcode !== SSTORE)) return;
    const n = stack.length;
    if (opcode === SSTORE && n >= 2) {
      const seen = this.seen(address);
      seen.set(stack[n - 1]!, stack[n - 2]!);
      entry.storage = new Map(seen);
      this.bytes += seen.size * STORAGE_ENTRY_BYTES;
    } else if (opcode === SLOAD && n >= 1) {
      this.load = { entry, address, slot: stack[n - 1]!, depth };
    }
  }

  /** An SLOAD's value, known: the contract's storage seen so far goes on its entry. */
  private loaded(load: NonNullable<StructLogger['load']>, value: bigint): void {
    const seen = this.seen(load.address);
    seen.set(load.slot, value);
    (load.entry as { storage?: ReadonlyMap<bigint, bigint> }).storage = new Map(seen);
    this.bytes += seen.size * STORAGE_ENTRY_BYTES;
  }

  /** Waits for the reads still under way; throws TraceTooLarge when the logs ended past the budget. */
  async settle(): Promise<void> {
    await Promise.all(this.reads);
    if (this.bytes > this.maxBytes) throw new TraceTooLarge(this.maxBytes);
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
