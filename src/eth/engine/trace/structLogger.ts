/**
 * geth's struct logger (eth/tracers/logger/logger.go): one entry per opcode with pc, op, gas left, its cost, depth,
 * refund counter, and by option the stack, memory, return data and, at SLOAD and SSTORE, the contract's storage
 * seen so far in the transaction (SLOAD reads the slot's current value, SSTORE takes the one it writes).
 *
 * An opcode that fails before it runs (out of gas, stack underflow or overflow) carries geth's `error` on its entry;
 * failures while it runs do not (geth reports those to OnFault, which the logger ignores).
 */
import { bigIntToBytes, setLengthLeft, type Address } from '@ethereumjs/util';
import type { FrameEnd, Frame, Step, Tracer } from './hooks.js';
import type { StructLogEntry, StructLoggerOptions, StructResult } from './types.js';

const SLOAD = 0x54;
const SSTORE = 0x55;
/** Failures geth meets before logging the opcode. */
const BEFORE_LOGGING = new Set(['out of gas', 'stack underflow', 'stack overflow']);

export class StructLogger implements Tracer {
  readonly wantsSteps = true;
  private readonly logs: StructLogEntry[] = [];
  /** Storage seen per contract, by address text. */
  private readonly storage = new Map<string, Map<bigint, bigint>>();
  /** The last entry of each open frame, by depth. */
  private readonly lastOfFrame: (StructLogEntry | undefined)[] = [];
  private output: Uint8Array = new Uint8Array();
  private evmError: string | undefined;

  constructor(private readonly opts: StructLoggerOptions) {}

  enter(frame: Frame): void {
    this.lastOfFrame[frame.depth] = undefined;
  }

  exit(frame: Frame, end: FrameEnd): void {
    const last = this.lastOfFrame[frame.depth];
    if (last !== undefined && end.evmError !== undefined && BEFORE_LOGGING.has(end.evmError)) last.error = end.error;
    if (frame.depth === 0) {
      this.output = end.output;
      this.evmError = end.evmError;
    }
  }

  step(s: Step): void | Promise<void> {
    const { opts } = this;
    const entry: { -readonly [K in keyof StructLogEntry]: StructLogEntry[K] } = {
      pc: s.pc,
      op: s.op,
      gas: s.gas,
      gasCost: s.cost,
      depth: s.depth,
      refund: s.refund,
    };
    if (!opts.disableStack) entry.stack = s.stack;
    if (opts.enableMemory && s.memory.length > 0) entry.memory = s.memory;
    if (opts.enableReturnData && s.frame.returnData.length > 0) entry.returnData = s.frame.returnData;
    this.logs.push(entry);
    this.lastOfFrame[s.depth - 1] = entry;
    if (opts.disableStorage || (s.opcode !== SLOAD && s.opcode !== SSTORE)) return;
    const n = s.stack.length;
    if (s.opcode === SSTORE && n >= 2) {
      const seen = this.seen(s.address);
      seen.set(s.stack[n - 1]!, s.stack[n - 2]!);
      entry.storage = new Map(seen);
    } else if (s.opcode === SLOAD && n >= 1) {
      const slot = s.stack[n - 1]!;
      return s.state.getStorage(s.address, setLengthLeft(bigIntToBytes(slot), 32)).then((value) => {
        const seen = this.seen(s.address);
        seen.set(slot, value.length === 0 ? 0n : BigInt('0x' + Buffer.from(value).toString('hex')));
        entry.storage = new Map(seen);
      });
    }
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
