/**
 * The call frame of opted-in EVMs, without the object spreads of @ethereumjs's EVM._executeCall
 * (`{ ...{ codeAddress }, ...message, gasLimit }`) and EVM.runInterpreter (its result and
 * `runState`), which Node 20's V8 runs on a slow path (~40-200 us per frame).
 *
 * - `_executeCall` is @ethereumjs's, step for step, for the forks it serves as is: it stands in
 *   only when none of EIPs 2780, 6800, 7708, 7864, 7928 is active and neither DEBUG nor the
 *   profiler is on; otherwise the stock method runs. It passes the message itself, with the gas the
 *   frame has, instead of a copy.
 * - `runInterpreter` builds the same environment and Interpreter and returns the same fields
 *   (logs, returnValue, selfdestruct, createdAddresses, exceptionError, gas, executionGasUsed,
 *   gasRefund, stateGasSpilled). Its `runState` holds only gasLeft, gasRefund and stateGasSpilled, and while a
 *   `step` listener traces (src/eth/engine/trace/hooks.ts) the stack, memory and program counter the frame ended
 *   with, by reference: @ethereumjs reads nothing else of it.
 */
import { EVM } from '@ethereumjs/evm';
import { Account, createZeroAddress, type Address } from '@ethereumjs/util';
import { internals } from './modules.js';
import { isOptedIn } from './optIn.js';
import type { EvmLike, ExecResultLike, FrameResult, InterpreterLike, MessageLike } from './types.js';

const REVERT = 'revert';
const INVALID_EOF_FORMAT = 'invalid EOF format';

/** True when the stock _executeCall would do nothing but what `leanExecuteCall` does. */
function plainCall(evm: EvmLike): boolean {
  const common = evm.common;
  return (
    !evm.DEBUG &&
    evm._optsCached.profiler?.enabled !== true &&
    !common.isActivatedEIP(2780) &&
    !common.isActivatedEIP(6800) &&
    !common.isActivatedEIP(7708) &&
    !common.isActivatedEIP(7864) &&
    !common.isActivatedEIP(7928)
  );
}

/** EVM._executeCall (message.to set) with those EIPs inactive and no spread of the message. */
async function leanExecuteCall(evm: EvmLike, message: MessageLike): Promise<{ execResult: ExecResultLike }> {
  const gasLimit = message.gasLimit;
  let account = await evm.stateManager.getAccount(message.caller!);
  if (!account) account = new Account();
  let errorMessage: unknown;
  if (!message.delegatecall) {
    try {
      await evm._reduceSenderBalance(account, message);
    } catch (e) {
      errorMessage = e;
    }
  }
  let toAccount = await evm.stateManager.getAccount(message.to!);
  if (!toAccount) toAccount = new Account();
  if (!message.delegatecall) {
    try {
      await evm._addToBalance(toAccount, message);
    } catch (e) {
      errorMessage = e;
    }
  }
  await evm._loadCode(message);
  const code = message.code;
  if (!code || (typeof code !== 'function' && code.length === 0) || errorMessage !== undefined) {
    return {
      execResult: {
        gasRefund: message.gasRefund,
        executionGasUsed: message.gasLimit - gasLimit,
        exceptionError: errorMessage,
        returnValue: new Uint8Array(0),
        logs: undefined,
      },
    };
  }
  let result: ExecResultLike;
  if (message.isCompiled) {
    result = await evm.runPrecompile(code, message.data, gasLimit);
    result.gasRefund = message.gasRefund;
  } else {
    // The stock method spreads the message into a copy whose codeAddress is read from the getter.
    result = await runFrame(evm, message, message.codeAddress, gasLimit, { initialLogs: undefined });
  }
  if (message.depth === 0) evm.postMessageCleanup();
  result.executionGasUsed += message.gasLimit - gasLimit;
  return { execResult: result };
}

/** EVM.runInterpreter for `message` with `gasLimit`, its result built field by field. */
async function runFrame(
  evm: EvmLike,
  message: MessageLike,
  codeAddress: Address | undefined,
  gasLimit: bigint,
  opts: { pc?: number; initialLogs?: unknown[] },
): Promise<ExecResultLike> {
  let contract = await evm.stateManager.getAccount(message.to ?? createZeroAddress());
  if (!contract) contract = new Account();
  const env = {
    address: message.to ?? createZeroAddress(),
    caller: message.caller ?? createZeroAddress(),
    callData: message.data ?? Uint8Array.from([0]),
    callValue: message.value ?? 0n,
    code: message.code,
    isStatic: message.isStatic ?? false,
    isCreate: message.isCreate ?? false,
    depth: message.depth ?? 0,
    gasPrice: evm._tx.gasPrice,
    origin: evm._tx.origin ?? message.caller ?? createZeroAddress(),
    block: evm._block ?? internals!.defaultBlock(),
    contract,
    codeAddress,
    gasRefund: message.gasRefund,
    chargeCodeAccesses: message.chargeCodeAccesses,
    blobVersionedHashes: message.blobVersionedHashes ?? [],
    accessWitness: message.accessWitness,
    createdAddresses: message.createdAddresses,
    initialLogs: opts.initialLogs,
  };
  const interpreter = newInterpreter(evm, env, gasLimit);
  if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct;
  if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses;
  const { runState, exceptionError } = await interpreter.run(message.code as Uint8Array, opts);
  let result: FrameResult = interpreter._result;
  let gasUsed = gasLimit - runState.gasLeft;
  if (exceptionError) {
    if (exceptionError.error !== REVERT && exceptionError.error !== INVALID_EOF_FORMAT) gasUsed = gasLimit;
    result = { logs: [], returnValue: result.returnValue, selfdestruct: new Map(), createdAddresses: new Set() };
  }
  message.accessWitness?.commit();
  const { gasLeft, gasRefund, stateGasSpilled } = runState;
  const stepped = evm.events.listenerCount('step') !== 0;
  // A tracer reads the memory a frame ended with (endState): only a frame nobody stepped gives its memory back.
  if (!stepped) releaseMemory((runState as unknown as { memory: PooledMemory }).memory);
  const end = stepped ? endState(runState) : { gasLeft, gasRefund, stateGasSpilled };
  return {
    logs: result.logs,
    returnValue: result.returnValue ?? new Uint8Array(0),
    selfdestruct: result.selfdestruct,
    createdAddresses: result.createdAddresses,
    runState: end,
    exceptionError,
    gas: gasLeft,
    executionGasUsed: gasUsed,
    gasRefund,
    stateGasSpilled,
  };
}

/** Memory as memory.js makes it: a fresh one's `_store` is CONTAINER_SIZE (8,192) zero bytes; it holds nothing else. */
interface PooledMemory {
  _store: Uint8Array;
}
const FRESH_STORE_BYTES = 8192;
const MAX_POOLED = 64;
/** Memories of ended frames, zeroed: each is taken by one frame at a time and given back when that frame ends. */
const memories: PooledMemory[] = [];
/** Frames that ran on a memory an ended frame gave back (for tests). */
export const memoryPool = { reused: 0 };
/** The Stack class (stack.js), read from the first interpreter the stock constructor makes. */
let StackClass: (new () => unknown) | undefined;

/**
 * `new Interpreter(...)` (interpreter.js), with a memory of an ended frame when one is pooled: the stock constructor
 * makes a fresh Memory, an 8 KB array, per frame. The object is built field for field as the constructor builds it.
 */
function newInterpreter(evm: EvmLike, env: object & { gasRefund: bigint }, gasLimit: bigint): InterpreterLike {
  const Interpreter = internals!.Interpreter;
  const common = evm.common as EvmLike['common'] & { consensusType(): string };
  // The constructor's clique check throws there: let the stock one say so.
  const memory = StackClass !== undefined && common.consensusType() !== 'poa' ? memories.pop() : undefined;
  if (memory === undefined) {
    const made = new Interpreter(evm, evm.stateManager, evm.blockchain, env, gasLimit, evm.journal, evm.performanceLogger, evm._optsCached.profiler);
    StackClass ??= (made._runState as unknown as { stack: { constructor: new () => unknown } }).stack.constructor;
    return made;
  }
  memoryPool.reused++;
  const it = Object.create(Interpreter.prototype) as InterpreterLike & Record<string, unknown>;
  it.opDebuggers = {};
  it._evm = evm;
  it._stateManager = evm.stateManager;
  it.common = common;
  it._runState = {
    programCounter: 0,
    opCode: 0xfe,
    memory,
    memoryWordCount: 0n,
    highestMemCost: 0n,
    stack: new StackClass!(),
    code: new Uint8Array(0),
    validJumps: Uint8Array.from([]),
    cachedPushes: {},
    stateManager: evm.stateManager,
    blockchain: evm.blockchain,
    env,
    shouldDoJumpAnalysis: true,
    interpreter: it,
    gasRefund: env.gasRefund,
    gasLeft: gasLimit,
    stateGasSpilled: 0n,
    returnBytes: new Uint8Array(0),
  } as unknown as InterpreterLike['_runState'];
  it.journal = evm.journal;
  it._env = env;
  const initialLogs = (env as { initialLogs?: unknown[] }).initialLogs;
  it._result = { logs: initialLogs ? [...initialLogs] : [], returnValue: undefined, selfdestruct: new Map() };
  it.profilerOpts = evm._optsCached.profiler;
  it.performanceLogger = evm.performanceLogger;
  return it;
}

/** Gives an ended frame's memory back, zeroed as a fresh one (one that grew past 8 KB is left to the collector). */
function releaseMemory(memory: PooledMemory): void {
  const store = memory._store;
  if (store.length !== FRESH_STORE_BYTES || memories.length >= MAX_POOLED) return;
  store.fill(0);
  memories.push(memory);
}

/** What a tracer reads of the state a frame ended in (geth logs the STOP of code that runs off its end). */
function endState(runState: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled?: bigint }) {
  const { gasLeft, gasRefund, stateGasSpilled, stack, memory, memoryWordCount, programCounter } = runState as typeof runState & {
    stack: unknown;
    memory: unknown;
    memoryWordCount: bigint;
    programCounter: number;
  };
  return { gasLeft, gasRefund, stateGasSpilled, stack, memory, memoryWordCount, programCounter };
}

/** Patches EVM.prototype for opted-in EVMs; false when @ethereumjs's internals could not be loaded. */
export function patchFrame(): boolean {
  if (internals === undefined) return false;
  const proto = EVM.prototype as unknown as EvmLike;
  const executeCall = proto._executeCall;
  proto._executeCall = function (this: EvmLike, message: MessageLike) {
    return isOptedIn(this) && plainCall(this) ? leanExecuteCall(this, message) : executeCall.call(this, message);
  };
  const runInterpreter = proto.runInterpreter;
  proto.runInterpreter = function (this: EvmLike, message: MessageLike, opts = {}) {
    return isOptedIn(this) ? runFrame(this, message, message.codeAddress, message.gasLimit, opts) : runInterpreter.call(this, message, opts);
  };
  return true;
}
