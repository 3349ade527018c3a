/**
 * Fair sharing: at most `limit` heavy calls of one key run at once (the methods whose definition declares the
 * `heavy` fact: EVM work, wide log queries, proofs, traces, simulations, fee estimates); a call past it answers -32005 at once, as the hosted gateway answers a
 * key over its limits, and the key's other calls are served as usual. Another key is never affected.
 */
import { failure, type RpcCall, type RpcResponse } from '../rpc/envelope.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';

export class HeavySlots {
  private readonly running = new Map<string, number>();

  /** Runs a call, holding a slot of `key` while it runs if it is heavy (its method's fact); past `limit` slots: -32005. */
  run(key: string, limit: number, call: RpcCall, heavy: boolean, execute: (call: RpcCall) => Promise<RpcResponse>): Promise<RpcResponse> {
    if (!heavy) return execute(call);
    const n = this.running.get(key) ?? 0;
    if (n >= limit) {
      const error = new RpcError(
        ErrorCode.LimitExceeded,
        `too many concurrent requests: at most ${limit} heavy calls (eth_call, eth_estimateGas, eth_getLogs, eth_getProof, ...) of one key at once`,
        { limit },
      );
      return Promise.resolve(failure(call.id ?? null, error));
    }
    this.running.set(key, n + 1);
    const release = () => {
      const left = (this.running.get(key) ?? 1) - 1;
      if (left === 0) this.running.delete(key);
      else this.running.set(key, left);
    };
    return execute(call).finally(release);
  }

  /** Heavy calls running for a key (for tests). */
  inUse(key: string): number {
    return this.running.get(key) ?? 0;
  }
}
