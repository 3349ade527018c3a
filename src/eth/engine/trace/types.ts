/**
 * Tracing's own types: what a trace is asked for (geth's TraceConfig, decoded) and what each tracer answers,
 * in bigints, bytes and Addresses. src/eth/format/trace.ts turns the answers into geth's wire forms.
 */
import type { Address } from '@ethereumjs/util';

/** The struct (opcode) logger's options, as geth's logger.Config. */
export interface StructLoggerOptions {
  readonly disableStack: boolean;
  readonly disableStorage: boolean;
  readonly enableMemory: boolean;
  readonly enableReturnData: boolean;
  /** geth's `limit`: stop logging once the logs' JSON passes this many bytes (0: no limit). Applied by the formatter. */
  readonly limit: number;
}

export interface CallTracerOptions {
  readonly onlyTopCall: boolean;
  readonly withLog: boolean;
}

export interface PrestateTracerOptions {
  readonly diffMode: boolean;
  readonly disableCode: boolean;
  readonly disableStorage: boolean;
  readonly includeEmpty: boolean;
}

/** Which tracer runs, with its options. */
export type TracerSpec =
  | { readonly kind: 'structLogger'; readonly opts: StructLoggerOptions }
  | { readonly kind: 'callTracer'; readonly opts: CallTracerOptions }
  | { readonly kind: 'prestateTracer'; readonly opts: PrestateTracerOptions }
  | { readonly kind: '4byteTracer' }
  | { readonly kind: 'noopTracer' };

/** One struct log entry: the state before the opcode runs. */
export interface StructLogEntry {
  readonly pc: number;
  readonly op: string;
  readonly gas: bigint;
  readonly gasCost: bigint;
  /** 1 for the transaction's own frame, as geth counts. */
  readonly depth: number;
  error?: string;
  /** Bottom first. */
  readonly stack?: readonly bigint[];
  readonly returnData?: Uint8Array;
  readonly memory?: Uint8Array;
  /** The contract's storage as seen so far in this transaction (slots read or written), at SLOAD and SSTORE. */
  readonly storage?: ReadonlyMap<bigint, bigint>;
  readonly refund: bigint;
}

export interface StructResult {
  readonly kind: 'structLogger';
  readonly gas: bigint;
  readonly failed: boolean;
  readonly returnValue: Uint8Array;
  readonly logs: readonly StructLogEntry[];
  readonly limit: number;
}

export interface CallLog {
  readonly address: Address;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  /** Block-wide log index (geth's log.Index). */
  readonly index: number;
  /** How many subcalls of its frame came before it. */
  readonly position: number;
}

export interface CallFrame {
  /** The opcode that made the frame: CALL, STATICCALL, DELEGATECALL, CALLCODE, CREATE, CREATE2, SELFDESTRUCT. */
  readonly type: string;
  readonly from: Address;
  to?: Address;
  gas: bigint;
  gasUsed: bigint;
  readonly input: Uint8Array;
  output?: Uint8Array;
  error?: string;
  revertReason?: string;
  readonly calls: CallFrame[];
  logs: CallLog[];
  /** Absent for STATICCALL (geth passes no value). */
  readonly value?: bigint;
  /** Whether its changes were rolled back (geth's revertedSnapshot). */
  reverted: boolean;
}

export interface CallResult {
  readonly kind: 'callTracer';
  readonly top: CallFrame;
}

/** An account as prestateTracer shows it. */
export interface PrestateAccount {
  balance?: bigint;
  nonce: bigint;
  /** Absent: not shown; empty: shown as `0x` (code cleared). */
  code?: Uint8Array;
  codeHash?: Uint8Array;
  /** Slot -> value (32 bytes each), by slot key text; absent when storage is not shown. */
  storage?: Map<string, { readonly slot: Uint8Array; readonly value: Uint8Array }>;
  /** Empty before the transaction (no nonce, code, storage or balance). */
  empty: boolean;
}

export interface PrestateResult {
  readonly kind: 'prestateTracer';
  readonly diffMode: boolean;
  /** By address (lowercase 0x text), with the Address kept. */
  readonly pre: ReadonlyMap<string, { readonly address: Address; readonly account: PrestateAccount }>;
  readonly post: ReadonlyMap<string, { readonly address: Address; readonly account: PrestateAccount }>;
}

export interface FourByteResult {
  readonly kind: '4byteTracer';
  /** `selector` (4 bytes) and the size of the rest of the input, with how often they were called. */
  readonly ids: readonly { readonly selector: Uint8Array; readonly size: number; readonly count: number }[];
}

export interface NoopResult {
  readonly kind: 'noopTracer';
}

export type TraceResult = StructResult | CallResult | PrestateResult | FourByteResult | NoopResult;

/** A traced transaction of a block. */
export interface TxTrace {
  readonly txHash: Uint8Array;
  readonly result: TraceResult;
}
