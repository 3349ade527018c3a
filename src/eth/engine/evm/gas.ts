/**
 * Dynamic-gas handlers an opted-in EVM runs in place of @ethereumjs's for the commonest memory and
 * storage opcodes (MLOAD, MSTORE, KECCAK256, RETURN, SLOAD). @ethereumjs's are async functions though
 * none awaits anything: each costs a promise and a microtask per opcode. These do the same, return
 * the gas itself, and the fast loop takes it without awaiting. Proven identical by the differential
 * test (evmFastPath.test.ts); taken only where the EVM still has the stock handler.
 */
import { internals } from './modules.js';
import { wordBytes } from './opcodes.js';
import type { OpEntry } from './types.js';

interface GasState {
  stack: { peek(n?: number): bigint[] };
  interpreter: unknown;
  env: unknown;
}
interface GasCommon {
  isActivatedEIP(eip: number): boolean;
  param(name: string): bigint;
}
/** A dynamic-gas handler that answers at once (the stock ones answer with a promise). */
export type SyncGasHandler = (runState: GasState, gas: bigint, common: GasCommon) => bigint;

const divCeil32 = (n: bigint) => (n + 31n) >> 5n;

const memoryAt =
  (size: bigint): SyncGasHandler =>
  (runState, gas, common) =>
    gas + internals!.subMemUsage(runState, runState.stack.peek()[0]!, size, common);

const keccak: SyncGasHandler = (runState, gas, common) => {
  const [offset, length] = runState.stack.peek(2) as [bigint, bigint];
  gas += internals!.subMemUsage(runState, offset, length, common);
  return gas + common.param('keccak256WordGas') * divCeil32(length);
};

const ret: SyncGasHandler = (runState, gas, common) => {
  const [offset, length] = runState.stack.peek(2) as [bigint, bigint];
  return gas + internals!.subMemUsage(runState, offset, length, common);
};

/** SLOAD's gas where no stateless EIP (6800, 7864) is active; the stock handler otherwise. */
const stockSload = internals?.gasHandlers.get(0x54);
const sload = ((runState, gas, common) => {
  if (common.isActivatedEIP(6800) || common.isActivatedEIP(7864)) return stockSload!(runState as never, gas, common);
  if (!common.isActivatedEIP(2929)) return gas;
  const keyBuf = wordBytes(runState.stack.peek()[0]!).slice();
  return gas + internals!.accessStorageEIP2929(runState, keyBuf, false, common, true);
}) as SyncGasHandler;

const REPLACEMENTS: [number, SyncGasHandler][] = [
  [0x20, keccak],
  [0x51, memoryAt(32n)],
  [0x52, memoryAt(32n)],
  [0x54, sload],
  [0xf3, ret],
];

/** Puts the replacements into `opcodeMap` (an EVM's own table) where it has the stock gas handler. */
export function replaceGasHandlers(opcodeMap: OpEntry[]): void {
  if (internals === undefined) return;
  for (const [op, handler] of REPLACEMENTS) {
    const entry = opcodeMap[op];
    if (entry !== undefined && entry.gasHandler === internals.gasHandlers.get(op)) entry.gasHandler = handler as unknown as OpEntry['gasHandler'];
  }
}
