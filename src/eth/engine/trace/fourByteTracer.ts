/**
 * geth's 4byteTracer (eth/tracers/native/4byte.go): how often each 4-byte selector was called with each size of the
 * rest of its input, over CALL, CALLCODE, DELEGATECALL and STATICCALL frames (the transaction's own included), not
 * counting calls to precompiles; and geth's noopTracer, which answers `{}`.
 */
import type { Address } from '@ethereumjs/util';
import type { Frame, Tracer } from './hooks.js';
import type { FourByteResult, NoopResult } from './types.js';
import { plainHex } from '../../../hex.js';

const CALL_TYPES = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);

export class FourByteTracer implements Tracer {
  readonly wantsSteps = false;
  private readonly ids = new Map<string, { selector: Uint8Array; size: number; count: number }>();

  constructor(private readonly isPrecompile: (address: Address) => boolean) {}

  enter(f: Frame): void {
    if (f.input.length < 4 || !CALL_TYPES.has(f.type) || f.to === undefined || this.isPrecompile(f.to)) return;
    const selector = f.input.subarray(0, 4);
    const size = f.input.length - 4;
    const key = `${plainHex(selector)}-${size}`;
    const seen = this.ids.get(key);
    if (seen !== undefined) seen.count++;
    else this.ids.set(key, { selector: selector.slice(), size, count: 1 });
  }

  result(): FourByteResult {
    return { kind: '4byteTracer', ids: [...this.ids.values()] };
  }
}

export class NoopTracer implements Tracer {
  readonly wantsSteps = false;

  result(): NoopResult {
    return { kind: 'noopTracer' };
  }
}
