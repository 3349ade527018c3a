/**
 * A method's definition: its name, its parameters (each with a decoder) and its handler. Handlers
 * get typed, decoded arguments and return wire-ready JSON values.
 */
import { InvalidArgument } from '../errors.js';
import type { Decoder } from './params.js';

export interface Param<T> {
  /** The name used for named (object) params and in error messages. */
  readonly name: string;
  readonly decode: Decoder<T>;
  /** Optional params may be absent or null and then decode to undefined. */
  readonly optional: boolean;
}

export type Params<A extends readonly unknown[]> = { readonly [K in keyof A]: Param<A[K]> };

export interface MethodDef<C = any, A extends readonly unknown[] = any[]> {
  readonly name: string;
  readonly params: Params<A>;
  /** Whether params may also be given by name, as an object (the rollup family). */
  readonly named?: boolean;
  readonly handler: (ctx: C, ...args: A) => unknown;
}

/** Defines a method; the handler's argument types follow from the params' decoders. */
export function defineMethod<C, const A extends readonly unknown[]>(def: MethodDef<C, A>): MethodDef<C, A> {
  return def;
}

/** A required parameter. */
export function required<T>(name: string, decode: Decoder<T>): Param<T> {
  return { name, decode, optional: false };
}

/** An optional parameter: absent or null gives undefined. */
export function optional<T>(name: string, decode: Decoder<T>): Param<T | undefined> {
  return { name, decode: decode as Decoder<T | undefined>, optional: true };
}

/** Decodes a request's `params` (array, named object or absent) into the handler's arguments. */
export function decodeArgs(def: MethodDef, raw: unknown): unknown[] {
  const specs = def.params as readonly Param<unknown>[];
  let values: unknown[];
  if (raw === undefined || raw === null) values = [];
  else if (Array.isArray(raw)) values = raw;
  else if (typeof raw === 'object' && def.named) {
    const obj = raw as Record<string, unknown>;
    const known = new Set(specs.map((p) => p.name));
    const unknown = Object.keys(obj).find((k) => !known.has(k));
    if (unknown !== undefined) throw new InvalidArgument(`unknown parameter ${JSON.stringify(unknown)}, want ${specs.map((p) => p.name).join(', ') || 'none'}`);
    values = specs.map((p) => obj[p.name]);
  } else throw new InvalidArgument(def.named ? 'params must be an array or an object' : 'non-array args');

  if (values.length > specs.length) throw new InvalidArgument(`too many arguments, want at most ${specs.length}`);
  const args: unknown[] = [];
  for (let i = 0; i < specs.length; i++) args.push(decodeArg(def, raw, specs[i]!, values[i], i));
  return args;
}

/** One argument decoded; its label (position, or name for named params) is worked out only for an error. */
function decodeArg(def: MethodDef, raw: unknown, spec: Param<unknown>, value: unknown, i: number): unknown {
  if (value === undefined || (value === null && spec.optional)) {
    if (spec.optional) return undefined;
    throw new InvalidArgument(`missing value for required argument ${argLabel(def, raw, spec, i)}`);
  }
  try {
    return spec.decode(value);
  } catch (err) {
    if (err instanceof InvalidArgument) throw new InvalidArgument(`invalid argument ${argLabel(def, raw, spec, i)}: ${err.message}`);
    throw err;
  }
}

const argLabel = (def: MethodDef, raw: unknown, spec: Param<unknown>, i: number) => (def.named && !Array.isArray(raw) ? JSON.stringify(spec.name) : String(i));
