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

/**
 * The accounts a call reveals (reads the state, code, storage or logs of) or runs the code of, from its raw params:
 * a list of addresses (empty: none), or ANY_ACCOUNT when they cannot be known from the params (client-supplied code,
 * a filter over every address, a trace by transaction or block hash). The contracts allowlist refuses ANY_ACCOUNT.
 */
export type Revealed = readonly string[] | typeof ANY_ACCOUNT;
export const ANY_ACCOUNT = 'any account' as const;

/**
 * What the gates (per-key devMethods, --no-dev-methods, heavy slots, persistence, allowlists, filters) know of a
 * method, declared once on its definition. A method without facts is a plain read that reveals no account's state.
 */
export interface MethodFacts {
  /** A dev/control method (mining, time, state edits, snapshots, keyless sends): off with devMethods false, never from a web page. */
  readonly dev?: boolean;
  /** May take long (runs the EVM, scans logs, builds proofs or traces): holds one of the key's heavy slots. */
  readonly heavy?: boolean;
  /** Changes chain or node state outside the writer: made durable in the data directory before it is answered. */
  readonly persists?: boolean;
  /** Works on the caller's own filters: the gateway tells it who calls. */
  readonly filter?: boolean;
  /** The accounts the call reveals or runs, from its raw params; absent: none. Never throws. */
  readonly reveals?: (params: unknown) => Revealed;
}

export interface MethodDef<C = any, A extends readonly unknown[] = any[]> {
  readonly name: string;
  /** The method's facts; absent: a plain read. */
  readonly facts?: MethodFacts;
  readonly params: Params<A>;
  /** Whether params may also be given by name, as an object (the rollup family). */
  readonly named?: boolean;
  readonly handler: (ctx: C, ...args: A) => unknown;
}

/** Where the gates find a method's definition by name (a network's dispatch table). */
export interface MethodLookup {
  get(name: string): MethodDef | undefined;
}

/** The facts of a method by name; an unknown method has none (dispatch answers it -32601). */
export function factsOf(methods: MethodLookup, name: string): MethodFacts {
  return methods.get(name)?.facts ?? NO_FACTS;
}
const NO_FACTS: MethodFacts = Object.freeze({});

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
