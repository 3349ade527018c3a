/**
 * Log and SELFDESTRUCT hooks of one VM, for eth_simulateV1's log collector (geth's simulator sees each log when the
 * LOG opcode runs, and each SELFDESTRUCT as a value transfer). Wraps the handlers of LOG0..LOG4 and SELFDESTRUCT in
 * this VM's own opcode table (`_opcodeMap`, an @ethereumjs internal built per EVM), so no other VM is affected; a
 * step listener would do the same at a far higher cost (an event object with stack and memory per opcode).
 */
import type { Log } from '@ethereumjs/evm';
import { type Address, createAddressFromBigInt } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

interface RunState {
  interpreter: { _result: { logs: Log[] }; getAddress(): Address };
  stack: { peek(n?: number): bigint[] };
  stateManager: { getAccount(a: Address): Promise<{ balance: bigint } | undefined> };
}

interface OpcodeEntry {
  opHandler: (runState: RunState, common: unknown) => unknown;
}

export interface LogHooks {
  /** A log the code just emitted (in the current frame). */
  onLog(log: Log): void;
  /** A SELFDESTRUCT about to move `value` from `from` to `to`. */
  onSelfdestruct(from: Address, to: Address, value: bigint): void;
}

/** Wraps the LOG and SELFDESTRUCT handlers of `vm`'s own opcode table (for the VM's life). */
export function hookLogs(vm: VM, hooks: LogHooks): void {
  const table = (vm.evm as unknown as { _opcodeMap: OpcodeEntry[] })._opcodeMap;
  for (let op = 0xa0; op <= 0xa4; op++) {
    const entry = table[op]!;
    const inner = entry.opHandler;
    entry.opHandler = (runState, common) => {
      const logs = runState.interpreter._result.logs;
      const before = logs.length;
      const out = inner(runState, common);
      const after = runState.interpreter._result.logs;
      if (after.length > before) hooks.onLog(after[after.length - 1]!);
      return out;
    };
  }
  const sd = table[0xff]!;
  const innerSd = sd.opHandler;
  sd.opHandler = async (runState, common) => {
    const [target] = runState.stack.peek(1);
    const self = runState.interpreter.getAddress();
    const balance = (await runState.stateManager.getAccount(self))?.balance ?? 0n;
    hooks.onSelfdestruct(self, createAddressFromBigInt(target!), balance);
    return innerSd(runState, common);
  };
}
