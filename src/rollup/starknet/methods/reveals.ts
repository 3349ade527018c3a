/**
 * The `reveals` facts of the Starknet and rollup methods: the contracts whose state a call reads or runs, from its
 * raw params (positional or named, as these methods take both), before they are decoded. What cannot be bounded
 * from the params (transactions run through an account's __execute__, traces by hash, an L1 message's handler, an
 * event query over every contract) is ANY_ACCOUNT, which the contracts allowlist refuses.
 */
import { ANY_ACCOUNT, type Revealed } from '../../../rpc/method.js';

type Obj = Record<string, unknown>;
const asObject = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const member = (o: Obj | undefined, name: string): unknown => (o !== undefined && Object.hasOwn(o, name) ? o[name] : undefined);

/** A param given by position `i` or by name. */
const param = (params: unknown, i: number, name: string): unknown => (Array.isArray(params) ? params[i] : member(asObject(params), name));

/** The felt at position `i` or name `name` (starknet_getStorageAt's contract_address, ...). */
export const feltParam =
  (i: number, name: string) =>
  (params: unknown): Revealed => {
    const v = param(params, i, name);
    return typeof v === 'string' ? [v] : ANY_ACCOUNT;
  };

/** starknet_call: its request's contract_address. */
export const callRequestReveals = (params: unknown): Revealed => {
  const a = member(asObject(param(params, 0, 'request')), 'contract_address');
  return typeof a === 'string' ? [a] : ANY_ACCOUNT;
};

/** starknet_getEvents: its filter's `address`; none is every contract. */
export const eventFilterReveals = (params: unknown): Revealed => {
  const a = member(asObject(param(params, 0, 'filter')), 'address');
  return typeof a === 'string' ? [a] : ANY_ACCOUNT;
};

/** What cannot be known from the params. */
export const revealsAny = (_params: unknown): Revealed => ANY_ACCOUNT;
