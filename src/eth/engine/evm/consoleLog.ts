/**
 * What the node log needs of a VM while it runs transactions: the calldata of every message sent to hardhat's
 * console address (console.sol's `console.log`), and each transaction's result (its revert payload and error).
 *
 * anvil treats the console address as an ordinary empty account (a call to it costs what any call to an empty
 * account costs: 2,600 gas cold), so the calls are seen, not answered: a synchronous listener on the EVM's
 * `beforeMessage` event (emitted by `EVM.runCall` for every frame, nested ones too) and on the VM's `afterTx`.
 * Neither changes gas, state or the fast path (loop.ts looks at `step` listeners only), and nothing is attached
 * while the log is off.
 *
 * anvil also prints the console.log calls of `eth_call` and `eth_estimateGas` runs (every run of an estimate): the
 * call path (exec/call.ts, exec/estimate.ts) runs each of them through `withCallConsole`, which, while the log
 * watches the chain (`watchCalls`), listens on the call VM for that run only; with no watcher it is `fn()` after one
 * WeakMap lookup.
 */
import type { VM } from '@ethereumjs/vm';
import type { TypedTransaction } from '@ethereumjs/tx';

/** hardhat's console address, `0x000000000000000000636F6e736F6c652e6c6f67` ("console.log" in ASCII). */
export const CONSOLE_ADDRESS = '0x000000000000000000636f6e736f6c652e6c6f67';

/** What a transaction ended with, as the log prints it. */
export interface TxOutcome {
  readonly tx: TypedTransaction;
  /** The EVM's error (`revert`, `out of gas`, ...), undefined when it succeeded. */
  readonly error: string | undefined;
  /** What the top frame returned or reverted with. */
  readonly returnValue: Uint8Array;
}

export interface ConsoleWatcher {
  /** Calldata of a message to the console address, in the order they are made. */
  console(data: Uint8Array): void;
  /** A transaction finished (successfully or not) on this VM. */
  txDone(outcome: TxOutcome): void;
}

interface MessageLike {
  readonly to?: { toString(): string };
  readonly data: Uint8Array;
}
interface TxEventLike {
  readonly transaction: TypedTransaction;
  readonly execResult: { readonly exceptionError?: { readonly error: string }; readonly returnValue: Uint8Array };
}

const isConsole = (message: MessageLike) => message.to !== undefined && message.to.toString() === CONSOLE_ADDRESS;

/** Watches `vm`'s console.log calls and transactions; the function returned stops it. */
export function watchConsole(vm: VM, watcher: ConsoleWatcher): () => void {
  const onMessage = (message: MessageLike) => {
    if (isConsole(message)) watcher.console(message.data);
  };
  const onTx = (event: TxEventLike) => {
    const { exceptionError, returnValue } = event.execResult;
    watcher.txDone({ tx: event.transaction, error: exceptionError?.error, returnValue });
  };
  // One parameter each: @ethereumjs's _emit calls them without awaiting a callback.
  vm.evm.events!.on('beforeMessage', onMessage as never);
  vm.events.on('afterTx', onTx as never);
  return () => {
    vm.evm.events!.off('beforeMessage', onMessage as never);
    vm.events.off('afterTx', onTx as never);
  };
}

/**
 * The console.log calldata one run (a transaction, an eth_call, an estimate) is kept and printed for, at most: 1 MiB
 * (a call at the gas cap could make millions of console calls); the calls past it are only counted.
 */
export const MAX_CONSOLE_BYTES = 1 << 20;

/**
 * Receives the console.log calls of one call run (eth_call, eth_estimateGas), in the order made, and how many more
 * were made past MAX_CONSOLE_BYTES.
 */
export type CallConsole = (calls: readonly Uint8Array[], dropped: number) => void;

/** The call watcher of each chain (keyed by the chain object: nothing here knows its type). */
const callConsoles = new WeakMap<object, CallConsole>();

/** Reports the console.log calls of the call runs on `owner`'s call VMs to `watcher`; the function returned stops it. */
export function watchCalls(owner: object, watcher: CallConsole): () => void {
  callConsoles.set(owner, watcher);
  return () => {
    if (callConsoles.get(owner) === watcher) callConsoles.delete(owner);
  };
}

/**
 * Runs `fn` (call runs on `vm`, a VM leased to this call alone) and reports the console.log calls they made to
 * `owner`'s call watcher once it settles, whether it succeeded or not; without a watcher, just `fn()`.
 */
export function withCallConsole<T>(owner: object, vm: VM, fn: () => Promise<T>): Promise<T> {
  const watcher = callConsoles.get(owner);
  if (watcher === undefined) return fn();
  const calls: Uint8Array[] = [];
  let [bytes, dropped] = [0, 0];
  const onMessage = (message: MessageLike) => {
    if (!isConsole(message)) return;
    bytes += message.data.length;
    // A copy: the calldata may be a view of the caller's memory.
    if (bytes <= MAX_CONSOLE_BYTES) calls.push(message.data.slice());
    else dropped++;
  };
  const done = () => {
    vm.evm.events!.off('beforeMessage', onMessage as never);
    if (calls.length > 0 || dropped > 0) watcher(calls, dropped);
  };
  vm.evm.events!.on('beforeMessage', onMessage as never);
  let run: Promise<T>;
  try {
    run = fn();
  } catch (err) {
    done();
    throw err;
  }
  return run.finally(done);
}
