/**
 * The parts of @ethereumjs/evm the fast path needs that the package does not export (the
 * Interpreter class, `defaultBlock`, the EIP-7928 post-call hook, the stock opcode handlers), loaded
 * by path from the package's own ESM build (evmFiles.ts; a bundle hands out its own copies): the very
 * modules its EVM imports, so classes and prototypes are the same objects.
 * Should any of them fail to load, `internals` is undefined and every EVM runs stock.
 */
import { evmFile } from '../evmFiles.js';
import type { InterpreterClass, OpEntry } from './types.js';

export interface EvmInternals {
  readonly Interpreter: InterpreterClass;
  /** The block an EVM runs with when none is set (evm.js). */
  readonly defaultBlock: () => unknown;
  /** Charges a CALL's scheduled EIP-7928 post-target out-of-gas, if any (opcodes/EIP7928.js). */
  readonly consumeEip7928PostTargetCallOog: (runState: object) => void;
  /** The stock opcode handlers, by opcode (opcodes/functions.js). */
  readonly handlers: Map<number, OpEntry['opHandler']>;
}

async function load(): Promise<EvmInternals | undefined> {
  try {
    const [interpreter, evm, eip7928, functions] = await Promise.all([evmFile('interpreter.js'), evmFile('evm.js'), evmFile('opcodes/EIP7928.js'), evmFile('opcodes/functions.js')]);
    const Interpreter = interpreter.Interpreter as InterpreterClass | undefined;
    const { defaultBlock } = evm;
    const { consumeEip7928PostTargetCallOog } = eip7928;
    const { handlers } = functions;
    const proto = Interpreter?.prototype;
    if (typeof proto?._getValidJumpDestinations !== 'function' || typeof proto.run !== 'function') return undefined;
    if (typeof defaultBlock !== 'function' || typeof consumeEip7928PostTargetCallOog !== 'function' || !(handlers instanceof Map)) return undefined;
    return {
      Interpreter: Interpreter!,
      defaultBlock: defaultBlock as () => unknown,
      consumeEip7928PostTargetCallOog: consumeEip7928PostTargetCallOog as (r: object) => void,
      handlers: handlers as Map<number, OpEntry['opHandler']>,
    };
  } catch {
    return undefined;
  }
}

export const internals = await load();
