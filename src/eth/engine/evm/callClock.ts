/**
 * The clock of a call VM, hooked into its opcode table (an @ethereumjs internal: `_opcodeMap`): every loop
 * takes a JUMP or JUMPI, so these two check, every 1,024 jumps,
 *  - the call's deadline (geth's EVM timeout, counted in the call's own EVM time): past it they throw
 *    CallTimeout, which the EVM rethrows;
 *  - the time slice: after SLICE_MS of EVM work they yield to the event loop (setImmediate) before jumping,
 *    so a long call (a loop to the gas cap, an estimate's binary search) never holds the gateway for more
 *    than a few milliseconds: other requests are answered in between. Results are the same; only the
 *    interleaving changes (a call VM is leased to one call at a time, see vmPool.ts).
 * To be awaited, the two handlers are marked async in this VM's table (its own copy, built with the VM);
 * both the stock interpreter and the fast loop then await them. Other VMs are untouched.
 */
import type { VM } from '@ethereumjs/vm';

/** EVM work between two yields to the event loop, at most (ms, checked every 1,024 jumps). */
export const SLICE_MS = 1;

/** Thrown from inside the interpreter to stop a call that ran out of time. */
export class CallTimeout extends Error {}

interface OpcodeInfo {
  readonly code: number;
  readonly name: string;
  readonly fullName: string;
  readonly fee: number;
  readonly isAsync: boolean;
  readonly dynamicGas: boolean;
}

interface OpcodeEntry {
  opcodeInfo: OpcodeInfo;
  opHandler: (runState: unknown, common: unknown) => unknown;
}

/**
 * A call VM's clock: the EVM time the call may still use (Infinity between calls: the deadline counts the call's
 * own slices, not the time it waited while others ran, so a call times out alike alone or under load), its
 * jumps, and the start of its slice.
 */
export interface CallClock {
  remaining: number;
  jumps: number;
  sliceStart: number;
  /** The opcode table whose JUMP and JUMPI check this clock. */
  readonly table: OpcodeEntry[];
}

const clocks = new WeakMap<VM, CallClock>();
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The same opcode, async (its handler is awaited by the interpreter). */
function asAsync(info: OpcodeInfo): OpcodeInfo {
  const Opcode = info.constructor as new (o: Omit<OpcodeInfo, never>) => OpcodeInfo;
  return new Opcode({ code: info.code, name: info.name, fullName: info.fullName, fee: info.fee, isAsync: true, dynamicGas: info.dynamicGas });
}

/** The clock of `vm`, made (and its JUMP/JUMPI wrapped) on first use; `slice` at the call's start. */
export function clockOf(vm: VM): CallClock {
  const table = (vm.evm as unknown as { _opcodeMap: OpcodeEntry[] })._opcodeMap;
  const clock = clocks.get(vm);
  if (clock !== undefined && clock.table === table) return clock;
  const own: CallClock = { remaining: Infinity, jumps: 0, sliceStart: performance.now(), table };
  for (const op of [0x56, 0x57]) {
    const entry = table[op]!;
    const inner = entry.opHandler;
    entry.opcodeInfo = asAsync(entry.opcodeInfo);
    entry.opHandler = (runState, common) => {
      if ((++own.jumps & 1023) === 0) {
        const used = performance.now() - own.sliceStart;
        if (used > own.remaining) throw new CallTimeout();
        if (used > SLICE_MS) {
          own.remaining -= used;
          return yieldNow().then(() => {
            own.sliceStart = performance.now();
            return inner(runState, common);
          });
        }
      }
      return inner(runState, common);
    };
  }
  clocks.set(vm, own);
  return own;
}

/** Starts a call's clock: the EVM time it may use, and a fresh slice. */
export function startClock(vm: VM, timeoutMs: number): CallClock {
  const clock = clockOf(vm);
  clock.remaining = timeoutMs;
  clock.sliceStart = performance.now();
  return clock;
}
