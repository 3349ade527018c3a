/** What eth_simulateV1's engine takes and gives (no JSON-RPC, no hex). */
import type { CallRequest } from '../exec/call.js';
import type { BlockOverride, StateOverride } from '../exec/overrides.js';
import type { MinedBlock } from '../chain/types.js';

/** One call of a simulated block: a call object, with the fields of a transaction geth's TransactionArgs takes. */
export interface SimCall extends CallRequest {
  readonly chainId?: bigint;
  readonly maxFeePerBlobGas?: bigint;
  readonly blobVersionedHashes?: readonly Uint8Array[];
}

export interface SimBlockInput {
  readonly blockOverrides?: BlockOverride;
  readonly stateOverrides?: StateOverride;
  readonly calls: readonly SimCall[];
}

export interface SimOptions {
  readonly blocks: readonly SimBlockInput[];
  readonly traceTransfers: boolean;
  readonly validation: boolean;
}

export interface SimLog {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  readonly logIndex: number;
}

export interface SimCallError {
  readonly code: number;
  readonly message: string;
  /** The revert payload (code 3). */
  readonly data?: Uint8Array;
}

export interface SimCallResult {
  readonly returnData: Uint8Array;
  readonly logs: readonly SimLog[];
  readonly gasUsed: bigint;
  readonly maxUsedGas: bigint;
  readonly status: 0 | 1;
  readonly error?: SimCallError;
}

/** A simulated block (shaped as a mined one for the block formatter) and its calls' results. */
export interface SimBlockResult {
  readonly mined: MinedBlock;
  readonly calls: readonly SimCallResult[];
}
