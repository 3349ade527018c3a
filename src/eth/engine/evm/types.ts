/** The internal shapes of @ethereumjs/evm (v10) that the fast path reads and writes. */
import type { Account, Address } from '@ethereumjs/util';

/** An opcode table entry (`evm._opcodeMap[op]`). */
export interface OpEntry {
  readonly opcodeInfo: {
    readonly code: number;
    readonly feeBigInt: bigint;
    readonly dynamicGas: boolean;
    readonly isAsync: boolean;
    readonly isInvalid: boolean;
  };
  /** Not readonly: devgate's eth_call wraps JUMP/JUMPI in place to enforce its deadline. */
  opHandler: (runState: RunState, common: unknown) => unknown;
  gasHandler: (runState: RunState, gas: bigint, common: unknown) => Promise<bigint>;
}

export interface JumpAnalysis {
  jumps: Uint8Array;
  pushes: Record<number, bigint>;
  opcodesCached: OpEntry[];
}

export interface RunState {
  programCounter: number;
  opCode: number;
  code: Uint8Array;
  validJumps: Uint8Array;
  cachedPushes: Record<number, bigint>;
  shouldDoJumpAnalysis: boolean;
  gasLeft: bigint;
  gasRefund: bigint;
  stateGasSpilled: bigint;
  env: { accessWitness?: { commit(): void; revert(): void } };
  eip7928PostTargetCallOog?: unknown;
  eip8037BurnLeftoverAfterCreateHaltOntoAlive?: boolean;
}

export interface EvmErrorLike {
  error: string;
  errorType: string;
}

export interface InterpreterResult {
  runState: RunState;
  exceptionError?: EvmErrorLike;
}

/** The interpreter's frame result (`interpreter._result`). */
export interface FrameResult {
  logs: unknown[];
  returnValue?: Uint8Array;
  selfdestruct: Map<string, string>;
  createdAddresses?: Set<string>;
}

export interface InterpreterLike {
  _evm: EvmLike;
  _runState: RunState;
  _result: FrameResult;
  common: CommonLike;
  profilerOpts?: { enabled?: boolean };
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis;
  run(code: Uint8Array, opts?: { pc?: number; initialLogs?: unknown[] }): Promise<InterpreterResult>;
}

export type InterpreterClass = {
  prototype: InterpreterLike;
  new (
    evm: EvmLike,
    stateManager: unknown,
    blockchain: unknown,
    env: object,
    gasLimit: bigint,
    journal: unknown,
    performanceLogger: unknown,
    profilerOpts: unknown,
  ): InterpreterLike;
};

export interface CommonLike {
  isActivatedEIP(eip: number): boolean;
}

/** A message as EVM._executeCall and EVM.runInterpreter read it (a Message, or a plain copy of one). */
export interface MessageLike {
  to?: Address;
  caller?: Address;
  value?: bigint;
  gasLimit: bigint;
  data?: Uint8Array;
  code?: Uint8Array | ((...args: unknown[]) => unknown);
  codeAddress?: Address;
  depth?: number;
  isStatic?: boolean;
  isCreate?: boolean;
  isCompiled?: boolean;
  delegatecall?: boolean;
  gasRefund: bigint;
  chargeCodeAccesses?: boolean;
  blobVersionedHashes?: Uint8Array[];
  accessWitness?: { commit(): void; revert(): void };
  selfdestruct?: Map<string, string>;
  createdAddresses?: Set<string>;
}

export interface ExecResultLike {
  executionGasUsed: bigint;
  gasRefund?: bigint;
  [key: string]: unknown;
}

export interface EvmLike {
  common: CommonLike;
  DEBUG: boolean;
  _optsCached: { profiler?: { enabled?: boolean } };
  events: { listenerCount(event: string): number };
  _opcodeMap: OpEntry[];
  stateManager: { getAccount(address: Address): Promise<Account | undefined> };
  blockchain: unknown;
  journal: unknown;
  performanceLogger: unknown;
  _tx: { gasPrice: bigint; origin?: Address };
  _block?: unknown;
  _reduceSenderBalance(account: Account, message: MessageLike): Promise<unknown>;
  _addToBalance(account: Account, message: MessageLike): Promise<unknown>;
  _loadCode(message: MessageLike): Promise<void>;
  runPrecompile(code: unknown, data: Uint8Array | undefined, gasLimit: bigint): Promise<ExecResultLike> | ExecResultLike;
  postMessageCleanup(): void;
  _executeCall(message: MessageLike): Promise<{ execResult: ExecResultLike }>;
  runInterpreter(message: MessageLike, opts?: { pc?: number; initialLogs?: unknown[] }): Promise<ExecResultLike>;
}
