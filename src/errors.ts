/**
 * Domain errors: what engines and handlers throw. They know nothing of JSON-RPC;
 * src/rpc/errors.ts maps each of them to a JSON-RPC error in one place.
 */

/** Base class of every error devgate means to show a client. */
export class DevgateError extends Error {
  override name = 'DevgateError';
}

/** A parameter could not be decoded or is out of range (JSON-RPC -32602). */
export class InvalidArgument extends DevgateError {
  override name = 'InvalidArgument';
}

/** The EVM executed REVERT (JSON-RPC 3). `reason` is the decoded message when one could be decoded. */
export class ExecutionReverted extends DevgateError {
  override name = 'ExecutionReverted';
  constructor(
    readonly returnData: Uint8Array,
    readonly reason?: string,
  ) {
    super(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`);
  }
}

/** Execution failed for another reason than REVERT: out of gas, invalid opcode, insufficient funds (-32000). */
export class ExecutionFailed extends DevgateError {
  override name = 'ExecutionFailed';
}

/** An eth_simulateV1 failure with geth's own code (-38010 nonce too low ... -38026 client limit, -32603, -32602). */
export class SimulationError extends DevgateError {
  override name = 'SimulationError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A query would answer more than the gateway allows (-32005), e.g. too many logs. */
export class LimitExceeded extends DevgateError {
  override name = 'LimitExceeded';
  constructor(
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The node does not serve this (e.g. a pruned or unknown block where an error is due) (-32000). */
export class ResourceNotFound extends DevgateError {
  override name = 'ResourceNotFound';
}

/** An error of the rollup family, with Starknet's own code (24 block not found, 20 contract not found, 40 contract error, ...). */
export class RollupError extends DevgateError {
  override name = 'RollupError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
