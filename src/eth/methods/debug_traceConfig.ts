/**
 * The trace config of the debug_trace* methods (geth's TraceConfig and TraceCallConfig), decoded: the struct logger's
 * options at the top level (disableStack, disableStorage, enableMemory, enableReturnData, limit), `tracer` (callTracer,
 * prestateTracer, 4byteTracer, noopTracer; none: the struct logger), `tracerConfig` (callTracer: onlyTopCall, withLog;
 * prestateTracer: diffMode, disableCode, disableStorage, includeEmpty) and `timeout` (a Go duration, default 5s).
 * Unknown members are ignored, as geth ignores them; a member of the wrong type is a -32602 naming it.
 */
import { InvalidArgument } from '../../errors.js';
import { bool, describe, field, object, quantityOf, type Decoder } from '../../rpc/params.js';
import { TRACE_TIMEOUT_MS, type TraceRequest } from '../engine/trace/run.js';
import type { TracerSpec } from '../engine/trace/types.js';
import type { BlockOverride, StateOverride } from '../engine/exec/overrides.js';
import { blockOverrideParam, stateOverrideParam } from './overrideParams.js';

const TRACERS = ['callTracer', 'prestateTracer', '4byteTracer', 'noopTracer'];

const flag = (o: Record<string, unknown>, name: string): boolean => (o[name] === undefined || o[name] === null ? false : field(name, bool)(o[name]));

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^[+-]?((\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
const PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/** A Go duration (`time.ParseDuration`: "5s", "300ms", "1m30s", "0") in milliseconds. */
export function parseDuration(text: string): number {
  if (text === '0' || text === '+0' || text === '-0') return 0;
  if (!DURATION.test(text)) throw new InvalidArgument(`time: invalid duration ${JSON.stringify(text)}`);
  let ms = 0;
  for (const [, n, unit] of text.matchAll(PART)) ms += Number(n) * UNITS[unit!]!;
  return text.startsWith('-') ? -ms : ms;
}

function timeoutOf(o: Record<string, unknown>): number {
  const t = o.timeout;
  if (t === undefined || t === null) return TRACE_TIMEOUT_MS;
  if (typeof t !== 'string') throw new InvalidArgument(`"timeout": expected a duration string such as "5s", got ${describe(t)}`);
  return field('timeout', (v) => parseDuration(v as string))(t);
}

function limitOf(o: Record<string, unknown>): number {
  const l = o.limit;
  if (l === undefined || l === null) return 0;
  if (typeof l !== 'number' || !Number.isInteger(l)) throw new InvalidArgument(`"limit": expected an integer, got ${describe(l)}`);
  return l < 0 ? 0 : l;
}

function tracerOf(o: Record<string, unknown>): TracerSpec {
  const name = o.tracer;
  const cfgValue = o.tracerConfig;
  const cfg = cfgValue === undefined || cfgValue === null ? {} : field('tracerConfig', (v) => object(v, 'an object'))(cfgValue);
  const sub = (n: string) => {
    try {
      return flag(cfg, n);
    } catch (err) {
      throw new InvalidArgument(`"tracerConfig".${(err as Error).message}`);
    }
  };
  if (name === undefined || name === null || name === '') {
    return {
      kind: 'structLogger',
      opts: {
        disableStack: flag(o, 'disableStack'),
        disableStorage: flag(o, 'disableStorage'),
        enableMemory: flag(o, 'enableMemory'),
        enableReturnData: flag(o, 'enableReturnData'),
        limit: limitOf(o),
      },
    };
  }
  if (typeof name !== 'string') throw new InvalidArgument(`"tracer": expected a tracer name, got ${describe(name)}`);
  switch (name) {
    case 'callTracer':
      return { kind: 'callTracer', opts: { onlyTopCall: sub('onlyTopCall'), withLog: sub('withLog') } };
    case 'prestateTracer': {
      const opts = { diffMode: sub('diffMode'), disableCode: sub('disableCode'), disableStorage: sub('disableStorage'), includeEmpty: sub('includeEmpty') };
      if (opts.diffMode && opts.includeEmpty) throw new InvalidArgument('cannot use diffMode with includeEmpty');
      return { kind: 'prestateTracer', opts };
    }
    case '4byteTracer':
      return { kind: '4byteTracer' };
    case 'noopTracer':
      return { kind: 'noopTracer' };
    default:
      throw new InvalidArgument(
        `tracer ${JSON.stringify(name.length > 60 ? name.slice(0, 57) + '...' : name)} not found: devgate serves the struct logger (no tracer) and ${TRACERS.join(', ')}; JavaScript tracers are not served`,
      );
  }
}

/** geth's TraceConfig. */
export const traceConfig: Decoder<TraceRequest> = (value) => {
  const o = object(value, 'a trace config object');
  return { spec: tracerOf(o), timeoutMs: timeoutOf(o) };
};

/** geth's TraceCallConfig: a TraceConfig with `txIndex`, `stateOverrides` and `blockOverrides` (as eth_call's). */
export const traceCallConfig: Decoder<TraceRequest & { txIndex?: number; stateOverrides?: StateOverride; blockOverrides?: BlockOverride }> = (value) => {
  const o = object(value, 'a trace config object');
  const txIndex = o.txIndex === undefined || o.txIndex === null ? undefined : Number(field('txIndex', quantityOf(32))(o.txIndex));
  const stateOverrides = o.stateOverrides === undefined ? undefined : field('stateOverrides', stateOverrideParam)(o.stateOverrides);
  const blockOverrides = o.blockOverrides === undefined ? undefined : field('blockOverrides', blockOverrideParam)(o.blockOverrides);
  return { ...traceConfig(value), txIndex, stateOverrides, blockOverrides };
};

/** The config when none is given: the struct logger with geth's defaults. */
export const DEFAULT_TRACE: TraceRequest = {
  spec: { kind: 'structLogger', opts: { disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 } },
  timeoutMs: TRACE_TIMEOUT_MS,
};
