/**
 * What the node log needs of a VM while it runs transactions: the calldata of every message sent to hardhat's
 * console address (console.sol's `console.log`), and each transaction's result (its revert payload and error).
 *
 * anvil treats the console address as an ordinary empty account (a call to it costs what any call to an empty
 * account costs: 2,600 gas cold), so the calls are seen, not answered: a synchronous listener on the EVM's
 * `beforeMessage` event (emitted by `EVM.runCall` for every frame, nested ones too) and on the VM's `afterTx`.
 * Neither changes gas, state or the fast path (loop.ts looks at `step` listeners only), and nothing is attached
 * while the log is off.
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

/** Watches `vm`'s console.log calls and transactions; the function returned stops it. */
export function watchConsole(vm: VM, watcher: ConsoleWatcher): () => void {
  const onMessage = (message: MessageLike) => {
    if (message.to !== undefined && message.to.toString() === CONSOLE_ADDRESS) watcher.console(message.data);
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
