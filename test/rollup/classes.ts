/**
 * devgate's own Sierra-form classes for seeds: a real ABI (Cairo 1 JSON ABI) and entry points with
 * real selectors; the program is not compiled Cairo (devgate does not run Cairo): it is the Sierra
 * version header followed by a marker felt saying so. Class hashes are computed by starknet.js in
 * tests and by the engine, so both must agree.
 */
import { poseidonHashMany } from '@scure/starknet';
import { hash, shortString } from 'starknet';

export interface AbiFunction {
  readonly name: string;
  readonly inputs: readonly [string, string][];
  readonly outputs: readonly string[];
  readonly view?: boolean;
}

/** Sierra 1.7.0, compiler 2.11.4, then the marker: not a program. */
const PROGRAM = ['0x1', '0x7', '0x0', '0x2', '0xb', '0x4', shortString.encodeShortString('devgate: not compiled Cairo')];

/** A class (RPC CONTRACT_CLASS form) with these external functions and constructor inputs, and its compiled class hash. */
export function sierraClass(
  name: string,
  functions: readonly AbiFunction[],
  constructorInputs: readonly [string, string][],
  l1Handlers: readonly string[] = [],
) {
  const fn = (f: AbiFunction) => ({
    type: 'function',
    name: f.name,
    inputs: f.inputs.map(([n, t]) => ({ name: n, type: t })),
    outputs: f.outputs.map((t) => ({ type: t })),
    state_mutability: f.view ? 'view' : 'external',
  });
  const abi = [
    { type: 'impl', name: `${name}Impl`, interface_name: `devgate::${name}::I${name}` },
    { type: 'interface', name: `devgate::${name}::I${name}`, items: functions.map(fn) },
    { type: 'constructor', name: 'constructor', inputs: constructorInputs.map(([n, t]) => ({ name: n, type: t })) },
    ...l1Handlers.map((h) => ({
      type: 'l1_handler',
      name: h,
      inputs: [
        { name: 'from_address', type: felt },
        { name: 'value', type: felt },
      ],
      outputs: [],
      state_mutability: 'external',
    })),
  ];
  const external = functions
    .map((f) => BigInt(hash.getSelectorFromName(f.name)))
    .sort((a, b) => (a < b ? -1 : 1))
    .map((selector, i) => ({ selector: '0x' + selector.toString(16), function_idx: i }));
  const contractClass = {
    sierra_program: [...PROGRAM, shortString.encodeShortString(name.slice(0, 31))],
    contract_class_version: '0.1.0',
    entry_points_by_type: {
      CONSTRUCTOR: [{ selector: hash.getSelectorFromName('constructor'), function_idx: functions.length }],
      EXTERNAL: external,
      L1_HANDLER: l1Handlers.map((h, i) => ({ selector: hash.getSelectorFromName(h), function_idx: functions.length + 1 + i })),
    },
    // as starknet.js sends an ABI: its JSON text with a space after each ':' and ','
    abi: JSON.stringify(abi).replace(/"(?:[^"\\]|\\.)*"|[:,]/g, (m) => (m === ':' ? ': ' : m === ',' ? ', ' : m)),
  };
  // starknet.js hashes the ABI of a compiled class (an array) as the text above; the node hashes the text it is sent
  const classHash = hash.computeSierraContractClassHash({ ...contractClass, abi } as any);
  // Not a CASM hash (there is no compiled class): a hash of the class hash under a devgate label.
  const compiledClassHash = '0x' + poseidonHashMany([BigInt(shortString.encodeShortString('devgate compiled class')), BigInt(classHash)]).toString(16);
  return { classHash, compiledClassHash, contractClass, abi };
}

const felt = 'core::felt252';
const u256 = 'core::integer::u256';
const address = 'core::starknet::contract_address::ContractAddress';
const calls = 'core::array::Array::<core::starknet::account::Call>';

/** An OpenZeppelin-style account: public key in the constructor, SRC6 entry points. */
export const ACCOUNT_CLASS = sierraClass(
  'Account',
  [
    { name: '__validate__', inputs: [['calls', calls]], outputs: [felt] },
    { name: '__execute__', inputs: [['calls', calls]], outputs: ['core::array::Array::<core::array::Span::<core::felt252>>'] },
    { name: '__validate_declare__', inputs: [['class_hash', felt]], outputs: [felt] },
    {
      name: '__validate_deploy__',
      inputs: [
        ['class_hash', felt],
        ['contract_address_salt', felt],
        ['public_key', felt],
      ],
      outputs: [felt],
    },
    {
      name: 'is_valid_signature',
      inputs: [
        ['hash', felt],
        ['signature', 'core::array::Array::<core::felt252>'],
      ],
      outputs: [felt],
      view: true,
    },
    { name: 'get_public_key', inputs: [], outputs: [felt], view: true },
    { name: 'get_nonce', inputs: [], outputs: [felt], view: true },
  ],
  [['public_key', felt]],
);

/** An ERC20 fee token. */
export const ERC20_CLASS = sierraClass(
  'ERC20',
  [
    { name: 'name', inputs: [], outputs: ['core::byte_array::ByteArray'], view: true },
    { name: 'symbol', inputs: [], outputs: ['core::byte_array::ByteArray'], view: true },
    { name: 'decimals', inputs: [], outputs: ['core::integer::u8'], view: true },
    { name: 'total_supply', inputs: [], outputs: [u256], view: true },
    { name: 'balance_of', inputs: [['account', address]], outputs: [u256], view: true },
    { name: 'balanceOf', inputs: [['account', address]], outputs: [u256], view: true },
    {
      name: 'transfer',
      inputs: [
        ['recipient', address],
        ['amount', u256],
      ],
      outputs: ['core::bool'],
    },
  ],
  [['recipient', address]],
);

/** The counter the shipped chain's transactions call. */
export const COUNTER_CLASS = sierraClass(
  'Counter',
  [
    { name: 'increase', inputs: [['by', felt]], outputs: [] },
    { name: 'increase_and_notify', inputs: [['by', felt]], outputs: [] },
    { name: 'get_counter', inputs: [], outputs: [felt], view: true },
  ],
  [],
  ['on_l1_message'],
);

/** The seed entries of the classes. */
export const SEED_CLASSES = [ACCOUNT_CLASS, ERC20_CLASS, COUNTER_CLASS].map(({ compiledClassHash, contractClass }) => ({ compiledClassHash, contractClass }));
