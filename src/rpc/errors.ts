import { DevgateError, ExecutionFailed, ExecutionReverted, InvalidArgument, LimitExceeded, ResourceNotFound, RollupError, SimulationError } from '../errors.js';

/** JSON-RPC error codes used by devgate. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
  ResourceNotFound: -32001,
  Rejected: -32002,
  LimitExceeded: -32005,
  ExecutionReverted: 3,
} as const;

/** A JSON-RPC error object, ready to be put in a response. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

import { bytesHex as hex } from '../hex.js';

/**
 * The one mapping from anything thrown by a handler to a JSON-RPC error.
 * Unknown errors become -32603 without their stack or internals.
 */
export function toRpcError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof InvalidArgument) return new RpcError(ErrorCode.InvalidParams, err.message);
  if (err instanceof ExecutionReverted) return new RpcError(ErrorCode.ExecutionReverted, err.message, hex(err.returnData));
  if (err instanceof ExecutionFailed) return new RpcError(ErrorCode.ServerError, err.message);
  if (err instanceof LimitExceeded) return new RpcError(ErrorCode.LimitExceeded, err.message, err.data);
  if (err instanceof ResourceNotFound) return new RpcError(ErrorCode.ServerError, err.message);
  if (err instanceof RollupError) return new RpcError(err.code, err.message, err.data);
  if (err instanceof SimulationError) return new RpcError(err.code, err.message);
  if (err instanceof DevgateError) return new RpcError(ErrorCode.ServerError, err.message);
  return new RpcError(ErrorCode.InternalError, 'internal error');
}
