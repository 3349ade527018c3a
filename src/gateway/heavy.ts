/**
 * Fair sharing: at most `limit` heavy calls of one key run at once (the methods whose definition declares the
 * `heavy` fact: EVM work, wide log queries, proofs, traces, simulations, fee estimates). A call past it either waits
 * for one of the key's slots, in arrival order, while the key's waiting calls stay within a byte budget (devgate's
 * own `unlimited` plan: a test suite's `Promise.all` of 64 calls is answered, as anvil answers it), or answers
 * -32005 at once (a hosted plan, or past the budget), as the hosted gateway answers a key over its limits. The
 * key's cheap calls are served as usual meanwhile, and another key is never affected.
 */
import { failure, type RpcCall, type RpcResponse } from '../rpc/envelope.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';

/** How a call past the slots may wait: its size, and the bytes the key's waiting calls may hold (0: it may not). */
export interface HeavyWait {
  readonly bytes: number;
  readonly maxBytes: number;
}

interface Waiter {
  readonly bytes: number;
  readonly go: () => void;
}

interface KeySlots {
  running: number;
  waitingBytes: number;
  readonly waiting: Waiter[];
}

export class HeavySlots {
  private readonly keys = new Map<string, KeySlots>();

  /** Runs a call, holding a slot of `key` while it runs if it is heavy (its method's fact); past `limit` slots it waits or answers -32005. */
  run(
    key: string,
    limit: number,
    call: RpcCall,
    heavy: boolean,
    execute: (call: RpcCall) => Promise<RpcResponse>,
    wait: HeavyWait = { bytes: 0, maxBytes: 0 },
  ): Promise<RpcResponse> {
    if (!heavy) return execute(call);
    let slots = this.keys.get(key);
    if (slots === undefined) this.keys.set(key, (slots = { running: 0, waitingBytes: 0, waiting: [] }));
    const held = slots;
    const release = () => this.release(key, held);
    if (held.running < limit) {
      held.running++;
      return execute(call).finally(release);
    }
    if (wait.maxBytes > 0 && held.waitingBytes + wait.bytes <= wait.maxBytes) {
      held.waitingBytes += wait.bytes;
      // The slot is handed over by `release` (the running count stays), so a later caller cannot take it first.
      return new Promise<void>((go) => held.waiting.push({ bytes: wait.bytes, go })).then(() => execute(call).finally(release));
    }
    const waiting = wait.maxBytes > 0 ? `, and at most ${wait.maxBytes} bytes of requests waiting for one` : '';
    const error = new RpcError(
      ErrorCode.LimitExceeded,
      `too many concurrent requests: at most ${limit} heavy calls (eth_call, eth_estimateGas, eth_getLogs, eth_getProof, ...) of one key at once${waiting}`,
      wait.maxBytes > 0 ? { limit, maxWaitingBytes: wait.maxBytes } : { limit },
    );
    return Promise.resolve(failure(call.id ?? null, error));
  }

  private release(key: string, slots: KeySlots): void {
    const next = slots.waiting.shift();
    if (next !== undefined) {
      slots.waitingBytes -= next.bytes;
      next.go();
      return;
    }
    slots.running--;
    if (slots.running === 0) this.keys.delete(key);
  }

  /** Heavy calls running for a key (for tests). */
  inUse(key: string): number {
    return this.keys.get(key)?.running ?? 0;
  }

  /** Heavy calls of a key waiting for a slot (for tests). */
  waiting(key: string): number {
    return this.keys.get(key)?.waiting.length ?? 0;
  }
}
