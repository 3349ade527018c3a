/**
 * The struct logs' byte budget of each chain (structLogger.ts, DEFAULT_MAX_TRACE_BYTES): given at start
 * (`--max-trace-bytes`, `maxTraceBytes`), read by every trace of the chain.
 */
import { DEFAULT_MAX_TRACE_BYTES } from './structLogger.js';

const budgets = new WeakMap<object, number>();

/** Sets the byte budget of `chain`'s traces. */
export function setTraceBudget(chain: object, maxBytes: number): void {
  budgets.set(chain, maxBytes);
}

/** The byte budget of `chain`'s traces. */
export function traceBudgetOf(chain: object): number {
  return budgets.get(chain) ?? DEFAULT_MAX_TRACE_BYTES;
}
