/**
 * The `reveals` facts of eth methods: which accounts a call reads (state, code, storage, logs) or runs the code of,
 * read from its raw params before it is decoded (the gateway's contracts allowlist checks them before dispatch).
 * Whatever cannot be bounded from the params is ANY_ACCOUNT, which the allowlist refuses: a call without `to` (it
 * runs the client's code), an override that sets code (the client's code runs as the account), a log query over
 * every address, and params too malformed to read (the method would refuse them anyway).
 */
import { ANY_ACCOUNT, type Revealed } from '../../rpc/method.js';

type Obj = Record<string, unknown>;

const asObject = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const member = (o: Obj | undefined, name: string): unknown => (o !== undefined && Object.hasOwn(o, name) ? o[name] : undefined);
const at = (params: unknown, i: number): unknown => (Array.isArray(params) ? params[i] : undefined);
const absent = (v: unknown) => v === undefined || v === null;

/** Joins what several parts reveal: any part revealing any account makes the whole ANY_ACCOUNT. */
function join(parts: readonly Revealed[]): Revealed {
  const out: string[] = [];
  for (const p of parts) {
    if (p === ANY_ACCOUNT) return ANY_ACCOUNT;
    out.push(...p);
  }
  return out;
}

/** The address string at position `i` (eth_getBalance, eth_getCode, eth_getProof, ...). */
export const addressAt =
  (i: number) =>
  (params: unknown): Revealed => {
    const v = at(params, i);
    return typeof v === 'string' ? [v] : ANY_ACCOUNT;
  };

/**
 * A call object: its `to` (runs that account's code) and the delegates of its EIP-7702 authorizations (their code
 * runs too); without `to` the client's own code runs.
 */
export function callObjectReveals(value: unknown): Revealed {
  const o = asObject(value);
  const to = member(o, 'to');
  if (typeof to !== 'string') return ANY_ACCOUNT;
  const auths = member(o, 'authorizationList');
  if (absent(auths)) return [to];
  if (!Array.isArray(auths)) return ANY_ACCOUNT;
  const delegates: string[] = [to];
  for (const a of auths) {
    const d = member(asObject(a), 'address');
    if (typeof d !== 'string') return ANY_ACCOUNT;
    delegates.push(d);
  }
  return delegates;
}

/** A state override: every account it names (and where a precompile moves); one that sets code is ANY_ACCOUNT. */
export function stateOverrideReveals(value: unknown): Revealed {
  if (absent(value)) return [];
  const o = asObject(value);
  if (o === undefined) return ANY_ACCOUNT;
  const out: string[] = [];
  for (const [key, account] of Object.entries(o)) {
    const a = asObject(account);
    if (a === undefined || !absent(member(a, 'code'))) return ANY_ACCOUNT;
    const moved = member(a, 'movePrecompileToAddress');
    if (!absent(moved)) {
      if (typeof moved !== 'string') return ANY_ACCOUNT;
      out.push(moved);
    }
    out.push(key);
  }
  return out;
}

/** eth_call, eth_estimateGas, eth_createAccessList: the call object, and the state override at `overrideAt`. */
export const callReveals =
  (overrideAt: number) =>
  (params: unknown): Revealed =>
    join([callObjectReveals(at(params, 0)), stateOverrideReveals(at(params, overrideAt))]);

/** debug_traceCall: the call object and its config's `stateOverrides`. */
export const traceCallReveals = (params: unknown): Revealed =>
  join([callObjectReveals(at(params, 0)), stateOverrideReveals(member(asObject(at(params, 2)), 'stateOverrides'))]);

/** eth_simulateV1: every call of every block and every block's state override. */
export function simulateReveals(params: unknown): Revealed {
  const blocks = member(asObject(at(params, 0)), 'blockStateCalls');
  if (!Array.isArray(blocks)) return ANY_ACCOUNT;
  const parts: Revealed[] = [];
  for (const b of blocks) {
    const block = asObject(b);
    if (block === undefined) return ANY_ACCOUNT;
    parts.push(stateOverrideReveals(member(block, 'stateOverrides')));
    const calls = member(block, 'calls');
    if (absent(calls)) continue;
    if (!Array.isArray(calls)) return ANY_ACCOUNT;
    for (const c of calls) parts.push(callObjectReveals(c));
  }
  return join(parts);
}

/** A log filter's `address` (one or a list); none, or an empty list, is every address. */
export function logFilterReveals(value: unknown): Revealed {
  const a = member(asObject(value), 'address');
  if (typeof a === 'string') return [a];
  if (Array.isArray(a) && a.length > 0 && a.every((x) => typeof x === 'string')) return a as string[];
  return ANY_ACCOUNT;
}

/** eth_getLogs, eth_newFilter: the filter object's addresses. */
export const logQueryReveals = (params: unknown): Revealed => logFilterReveals(at(params, 0));

/** eth_subscribe: a `logs` subscription reveals its filter's addresses; newHeads and pending transactions none. */
export const subscribeReveals = (params: unknown): Revealed => (at(params, 0) === 'logs' ? logFilterReveals(at(params, 1)) : []);

/** eth_getStorageValues: the keys of its `{ address: [slots] }` request. */
export function storageValuesReveals(params: unknown): Revealed {
  const o = asObject(at(params, 0));
  return o === undefined ? ANY_ACCOUNT : Object.keys(o);
}

/** What cannot be known from the params (a trace by transaction or block hash, a whole-state dump, client code). */
export const revealsAny = (_params: unknown): Revealed => ANY_ACCOUNT;
