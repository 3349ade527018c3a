/**
 * The clock of a call VM. It is checked by work done (issue 25: a loop that CALLs a 24 KB JUMPDEST sled runs ~24,000
 * opcodes per jump, so a clock that counted jumps held the gateway for seconds):
 *  - the fast loop (loop.ts) spends one unit of the clock's credit per opcode, and for the heavy opcodes (hashing,
 *    copies, logs, storage and account reads, calls and creations: those whose work grows with their input or leaves
 *    the loop, precompiles included) as many units as their gas asks (`workOf`); when the credit (CHECK_UNITS) is
 *    spent, `tick` checks the clock;
 *  - frames the stock interpreter runs (step listeners that await, EOF, unusual EIPs) are checked by their JUMP and
 *    JUMPI, hooked into the VM's opcode table (an @ethereumjs internal: `_opcodeMap`), every 1,024 jumps.
 * A check looks at
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

/** EVM work between two yields to the event loop, at most (ms, checked every CHECK_UNITS of work or 1,024 jumps). */
export const SLICE_MS = 1;
/**
 * Work units between two looks at the time in the fast loop: an opcode is one unit (~20-60 ns on the fast loop), so
 * the clock reads performance.now() every few microseconds of plain opcodes, and at once after a heavy one.
 */
export const CHECK_UNITS = 256;
/** Gas of a heavy opcode per work unit (a cold SLOAD, 2,100 gas, or any CALL with gas to give checks the clock at once). */
const GAS_PER_UNIT = 8;

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
  /** Work units the fast loop may still run before it checks the clock. */
  credit: number;
  /** The last turn of the event loop (sliceStart counts only the call's own EVM work; this, all work since). */
  turnStart: number;
  /** The opcode table whose JUMP and JUMPI check this clock. */
  readonly table: OpcodeEntry[];
}

const clocks = new WeakMap<VM, CallClock>();
/** The same clocks by EVM: the fast loop knows its interpreter's EVM, not the VM. */
const evmClocks = new WeakMap<object, CallClock>();
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
  const own: CallClock = { remaining: Infinity, jumps: 0, sliceStart: performance.now(), credit: CHECK_UNITS, turnStart: performance.now(), table };
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
            own.sliceStart = own.turnStart = performance.now();
            return inner(runState, common);
          });
        }
      }
      return inner(runState, common);
    };
  }
  clocks.set(vm, own);
  evmClocks.set(vm.evm, own);
  return own;
}

/** The clock of the VM whose EVM is `evm`; undefined for an EVM no call started a clock on (e.g. a block builder's). */
export function clockOfEvm(evm: object): CallClock | undefined {
  return evmClocks.get(evm);
}

/**
 * Opcodes whose work is not one step's: 1 = as many units as their gas asks (KECCAK256, the copies, BALANCE,
 * EXTCODE*, SLOAD, SSTORE, MCOPY, LOG0-4, SELFDESTRUCT), 2 = the clock is checked right after (CALL, CALLCODE,
 * DELEGATECALL, STATICCALL, CREATE, CREATE2: they run frames or precompiles).
 */
export const HEAVY: Uint8Array = (() => {
  const heavy = new Uint8Array(256);
  for (const op of [0x20, 0x31, 0x37, 0x39, 0x3b, 0x3c, 0x3e, 0x3f, 0x54, 0x55, 0x5e, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xff]) heavy[op] = 1;
  for (const op of [0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]) heavy[op] = 2;
  return heavy;
})();

/** The work units of a heavy opcode (HEAVY[op] !== 0) that charged `gas`. */
export function workOf(heavy: number, gas: bigint): number {
  if (heavy === 2 || gas >= BigInt(CHECK_UNITS * GAS_PER_UNIT)) return CHECK_UNITS;
  return Number(gas) / GAS_PER_UNIT + 1;
}

/**
 * Checks the clock once its credit is spent: past the call's deadline it throws CallTimeout; after SLICE_MS of work
 * it answers with a promise that settles after a turn of the event loop (setImmediate), else undefined.
 */
export function tick(clock: CallClock): Promise<void> | undefined {
  clock.credit = CHECK_UNITS;
  const now = performance.now();
  const used = now - clock.sliceStart;
  if (used > clock.remaining) throw new CallTimeout();
  if (now - clock.turnStart <= SLICE_MS) return undefined;
  clock.remaining -= used;
  return yieldNow().then(() => {
    clock.sliceStart = clock.turnStart = performance.now();
  });
}

/**
 * A look at `vm`'s clock between two pieces of work that run no opcodes (a simulated transfer, a block built, a state
 * override applied): after SLICE_MS since the last turn it answers with a promise of one (setImmediate), else
 * undefined. That work is not counted against the call's deadline (as before: the deadline counts EVM work); a new
 * slice starts after the turn.
 */
export function pause(vm: VM): Promise<void> | undefined {
  const clock = clockOf(vm);
  if (performance.now() - clock.turnStart <= SLICE_MS) return undefined;
  return yieldNow().then(() => {
    clock.sliceStart = clock.turnStart = performance.now();
  });
}

/** Starts a call's clock: the EVM time it may use, and a fresh slice. */
export function startClock(vm: VM, timeoutMs: number): CallClock {
  const clock = clockOf(vm);
  clock.remaining = timeoutMs;
  clock.sliceStart = clock.turnStart = performance.now();
  clock.credit = CHECK_UNITS;
  return clock;
}
