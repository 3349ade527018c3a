/** The dispatch table of a network: method lookup, argument decoding, handler call, error mapping. */
import { DevgateError } from '../errors.js';
import { ErrorCode, RpcError, toRpcError } from './errors.js';
import { failure, success, type RpcCall, type RpcId, type RpcResponse } from './envelope.js';
import { decodeArgs, type MethodDef } from './method.js';

export class MethodTable<C> {
  private readonly methods = new Map<string, MethodDef<C>>();
  /** Told the name of each call to a known method before it runs (the node log, while on: anvil prints them). */
  private observer: ((method: string) => void) | undefined;

  constructor(defs: Iterable<MethodDef<C, any>> = []) {
    for (const def of defs) this.add(def);
  }

  /** Registers a method, under its own name and any aliases. */
  add(def: MethodDef<C, any>, ...aliases: string[]): this {
    for (const name of [def.name, ...aliases]) {
      if (this.methods.has(name)) throw new Error(`method ${name} is defined twice`);
      this.methods.set(name, def);
    }
    return this;
  }

  get(name: string): MethodDef<C> | undefined {
    return this.methods.get(name);
  }

  /** Sets (or, with undefined, removes) the observer of the calls to known methods. */
  observe(observer: ((method: string) => void) | undefined): void {
    this.observer = observer;
  }

  names(): string[] {
    return [...this.methods.keys()].sort();
  }

  /**
   * Runs one call against `ctx`; every failure comes back as an error response, never a throw. A handler
   * that answers at once is not awaited (no extra turn of the microtask queue).
   */
  execute(ctx: C, call: RpcCall): Promise<RpcResponse> {
    const id = call.id ?? null;
    const def = this.methods.get(call.method);
    if (def === undefined) {
      return Promise.resolve(failure(id, new RpcError(ErrorCode.MethodNotFound, `the method ${call.method} does not exist/is not available`)));
    }
    this.observer?.(call.method);
    let result: unknown;
    try {
      result = def.handler(ctx, ...decodeArgs(def, call.params));
    } catch (err) {
      return Promise.resolve(failed(id, call.method, err));
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => success(id, value === undefined ? null : value),
        (err: unknown) => failed(id, call.method, err),
      );
    }
    return Promise.resolve(success(id, result === undefined ? null : result));
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/** The error response of a call whose handler threw. */
function failed(id: RpcId, method: string, err: unknown): RpcResponse {
  const rpcErr = toRpcError(err);
  // A domain error answered -32603 on purpose (geth's "method handler crashed" of eth_simulateV1) is no bug of devgate's.
  if (rpcErr.code === ErrorCode.InternalError && !(err instanceof DevgateError) && !(err instanceof RpcError)) reportInternal(method, err);
  return failure(id, rpcErr);
}

/**
 * An internal error is a bug of devgate's: its stack goes to devgate's own stderr (never to the client), so it
 * is seen. The method name is the client's string: JSON-quoted and cut short.
 */
function reportInternal(method: string, err: unknown): void {
  const name = JSON.stringify(method.length > 80 ? method.slice(0, 80) + '...' : method);
  console.error(`devgate: internal error in ${name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}
