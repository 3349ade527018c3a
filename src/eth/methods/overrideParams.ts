/**
 * Decoders of geth's override objects: the state override (eth_call's third argument, eth_estimateGas's,
 * eth_createAccessList's, and each block of eth_simulateV1) and the block override (eth_call's and
 * eth_estimateGas's fourth, eth_simulateV1's blocks). Members as geth's internal/ethapi/override names them;
 * unknown members are ignored, as Go's JSON decoding ignores them. Errors name the member.
 */
import { Address } from '@ethereumjs/util';
import { address, arrayOf, field, hash32, hexData, object, quantity, uint64, type Decoder } from '../../rpc/params.js';
import type { AccountOverride, BlockOverride, StateOverride } from '../engine/exec/overrides.js';

const opt = <T>(o: Record<string, unknown>, name: string, decode: Decoder<T>): T | undefined =>
  !Object.hasOwn(o, name) || o[name] === undefined || o[name] === null ? undefined : field(name, decode)(o[name]);

const addressParam: Decoder<Address> = (value) => new Address(address(value));

/** `{ slot: value }` with 32-byte hex keys and values; a JSON null is no map. */
const storageMap: Decoder<[Uint8Array, Uint8Array][]> = (value) => {
  const o = object(value, 'a storage map { slot: value }');
  return Object.entries(o).map(([k, v]) => [field(`key ${k}`, hash32)(k), field(k, hash32)(v)]);
};

const accountOverride: Decoder<AccountOverride> = (value) => {
  const o = object(value, 'an account override { nonce, code, balance, state, stateDiff, movePrecompileToAddress }');
  return {
    nonce: opt(o, 'nonce', uint64),
    code: opt(o, 'code', hexData),
    balance: opt(o, 'balance', quantity),
    state: opt(o, 'state', storageMap),
    stateDiff: opt(o, 'stateDiff', storageMap),
    movePrecompileToAddress: opt(o, 'movePrecompileToAddress', addressParam),
  };
};

/** A state override: `{ "0x<address>": { balance, nonce, code, state | stateDiff, movePrecompileToAddress } }`. */
export const stateOverrideParam: Decoder<StateOverride> = (value) => {
  if (value === null) return [];
  const o = object(value, 'a state override object { address: account override }');
  // Go decodes the object into a map: of two keys naming one address (in another case), the last wins.
  const byAddress = new Map<string, readonly [Address, AccountOverride]>();
  for (const [key, account] of Object.entries(o)) {
    const a = field(`key ${key}`, addressParam)(key);
    byAddress.set(a.toString(), [a, field(key, accountOverride)(account)]);
  }
  return [...byAddress.values()];
};

/** A withdrawal `{ index, validatorIndex, address, amount }` (missing members are zero, as Go decodes them). */
export const withdrawalParam = (value: unknown) => {
  const o = object(value, 'a withdrawal { index, validatorIndex, address, amount }');
  return {
    index: field('index', uint64)(o.index ?? '0x0'),
    validatorIndex: field('validatorIndex', uint64)(o.validatorIndex ?? '0x0'),
    address: field('address', addressParam)(o.address ?? '0x0000000000000000000000000000000000000000'),
    amount: field('amount', uint64)(o.amount ?? '0x0'),
  };
};

/** A block override: `{ number, difficulty, time, gasLimit, feeRecipient, prevRandao, baseFeePerGas, blobBaseFee, beaconRoot, withdrawals }`. */
export const blockOverrideParam: Decoder<BlockOverride | undefined> = (value) => {
  if (value === null) return undefined;
  const o = object(value, 'a block override object');
  return {
    number: opt(o, 'number', quantity),
    difficulty: opt(o, 'difficulty', quantity),
    time: opt(o, 'time', uint64),
    gasLimit: opt(o, 'gasLimit', uint64),
    feeRecipient: opt(o, 'feeRecipient', addressParam),
    prevRandao: opt(o, 'prevRandao', hash32),
    baseFeePerGas: opt(o, 'baseFeePerGas', quantity),
    blobBaseFee: opt(o, 'blobBaseFee', quantity),
    beaconRoot: opt(o, 'beaconRoot', hash32),
    withdrawals: opt(o, 'withdrawals', arrayOf(withdrawalParam, 'an array of withdrawals')),
  };
};
