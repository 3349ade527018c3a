/**
 * The parts of @ethereumjs/evm the fast path needs that the package does not export (the
 * Interpreter class, `defaultBlock`, the EIP-7928 post-call hook, the stock opcode handlers), loaded
 * by path from the package's own ESM build (evmFiles.ts; a bundle hands out its own copies): the very
 * modules its EVM imports, so classes and prototypes are the same objects.
 * Should any of them fail to load, or the gate (gate.ts: exact versions, DEVGATE_EVM_FAST_PATH=0) say no,
 * `internals` is undefined and every EVM runs stock.
 */
import { evmFile } from './evmFiles.js';
import { gate } from './gate.js';
import type { InterpreterClass, OpEntry } from './types.js';

export interface EvmInternals {
  readonly Interpreter: InterpreterClass;
  /** The block an EVM runs with when none is set (evm.js). */
  readonly defaultBlock: () => unknown;
  /** Charges a CALL's scheduled EIP-7928 post-target out-of-gas, if any (opcodes/EIP7928.js). */
  readonly consumeEip7928PostTargetCallOog: (runState: object) => void;
  /** The stock opcode handlers, by opcode (opcodes/functions.js). */
  readonly handlers: Map<number, OpEntry['opHandler']>;
  /** The stock dynamic-gas handlers, by opcode (opcodes/gas.js). */
  readonly gasHandlers: Map<number, OpEntry['gasHandler']>;
  /** Memory expansion gas (opcodes/util.js). */
  readonly subMemUsage: (runState: object, offset: bigint, length: bigint, common: object) => bigint;
  /** Warms a slot and returns its EIP-2929 cost (opcodes/EIP2929.js). */
  readonly accessStorageEIP2929: (runState: object, key: Uint8Array, isSstore: boolean, common: object, chargeGas?: boolean) => bigint;
  /** Per opcode, how many immediate bytes follow it (eof/stackDelta.js; a step event carries them). */
  readonly stackDelta: Record<number, { intermediates: number } | undefined>;
}

async function load(): Promise<EvmInternals | undefined> {
  if (!gate.on) return undefined;
  try {
    const [interpreter, evm, eip7928, functions, gas, util, eip2929, eof] = await Promise.all([
      evmFile('interpreter.js'),
      evmFile('evm.js'),
      evmFile('opcodes/EIP7928.js'),
      evmFile('opcodes/functions.js'),
      evmFile('opcodes/gas.js'),
      evmFile('opcodes/util.js'),
      evmFile('opcodes/EIP2929.js'),
      evmFile('eof/stackDelta.js'),
    ]);
    const Interpreter = interpreter.Interpreter as InterpreterClass | undefined;
    const { defaultBlock } = evm;
    const { consumeEip7928PostTargetCallOog } = eip7928;
    const { handlers } = functions;
    const proto = Interpreter?.prototype;
    if (typeof proto?._getValidJumpDestinations !== 'function' || typeof proto.run !== 'function') return undefined;
    if (typeof defaultBlock !== 'function' || typeof consumeEip7928PostTargetCallOog !== 'function' || !(handlers instanceof Map)) return undefined;
    const { dynamicGasHandlers } = gas;
    const { subMemUsage } = util;
    const { accessStorageEIP2929 } = eip2929;
    const { stackDelta } = eof;
    if (!(dynamicGasHandlers instanceof Map) || typeof subMemUsage !== 'function' || typeof accessStorageEIP2929 !== 'function') return undefined;
    if (typeof stackDelta !== 'object' || stackDelta === null) return undefined;
    return {
      Interpreter: Interpreter!,
      defaultBlock: defaultBlock as () => unknown,
      consumeEip7928PostTargetCallOog: consumeEip7928PostTargetCallOog as (r: object) => void,
      handlers: handlers as Map<number, OpEntry['opHandler']>,
      gasHandlers: dynamicGasHandlers as EvmInternals['gasHandlers'],
      subMemUsage: subMemUsage as EvmInternals['subMemUsage'],
      accessStorageEIP2929: accessStorageEIP2929 as EvmInternals['accessStorageEIP2929'],
      stackDelta: stackDelta as EvmInternals['stackDelta'],
    };
  } catch {
    return undefined;
  }
}

export const internals = await load();
