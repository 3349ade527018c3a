/**
 * Parameter decoders of the rollup_ family, and the conversion of wire transactions and outcomes
 * (hex strings, snake_case) into the engine's types (bigints). Seeds use the same conversion.
 */
import type { z } from 'zod';
import { InvalidArgument } from '../errors.js';
import { describe, type Decoder } from '../rpc/params.js';
import {
  DeclareV3Wire,
  DeployAccountV3Wire,
  Felt as FeltSchema,
  InvokeV1Wire,
  InvokeV3Wire,
  OutcomeWire,
  type ContractClassWire,
  type InvokeWire,
} from '../seed/rollup.js';
import { sierraClassHash } from './engine/classes.js';
import {
  QUERY_VERSION_OFFSET,
  type BlockId,
  type DeclaredClass,
  type DeclareV3,
  type DeployAccountV3,
  type Felt,
  type InvokeTransaction,
  type OutcomeInput,
  type ResourceBounds,
  type RollupTransaction,
  type SierraClass,
} from './engine/types.js';

/** Runs a zod schema as a decoder; the first issue becomes the message, with its path. */
function fromSchema<S extends z.ZodType>(schema: S): Decoder<z.infer<S>> {
  return (value) => {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    const issue = r.error.issues[0]!;
    const path = issue.path.map((p) => JSON.stringify(String(p))).join(': ');
    throw new InvalidArgument(path === '' ? issue.message : `${path}: ${issue.message}`);
  };
}

/** A felt: `0x` hex below the field prime (leading zeros allowed). */
export const felt: Decoder<Felt> = (value) => BigInt(fromSchema(FeltSchema)(value));

/** `{"block_hash": h}`, `{"block_number": n}` (a JSON integer), `"latest"` or `"pending"`. */
export const blockId: Decoder<BlockId> = (value) => {
  if (value === 'latest' || value === 'pending') return { tag: value };
  if (typeof value === 'string')
    throw new InvalidArgument(
      `unknown block tag ${JSON.stringify(value.slice(0, 40))}, want "latest", "pending", {"block_hash": ...} or {"block_number": ...}`,
    );
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidArgument(`expected a block id ("latest", "pending", {"block_hash": ...} or {"block_number": ...}), got ${describe(value)}`);
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length !== 1 || (keys[0] !== 'block_hash' && keys[0] !== 'block_number')) {
    throw new InvalidArgument(
      `a block id object has exactly one member, block_hash or block_number; got ${keys.length === 0 ? 'none' : keys.map((k) => JSON.stringify(k)).join(', ')}`,
    );
  }
  if (Object.hasOwn(o, 'block_hash')) {
    try {
      return { hash: felt(o.block_hash) };
    } catch (err) {
      throw new InvalidArgument(`"block_hash": ${(err as Error).message}`);
    }
  }
  const n = o.block_number;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new InvalidArgument(`"block_number": expected a non-negative JSON integer, got ${describe(n)}`);
  return { number: BigInt(n) };
};

const VERSIONS = new Map<string, { version: 1 | 3; query: boolean }>([
  ['1', { version: 1, query: false }],
  ['3', { version: 3, query: false }],
  [(QUERY_VERSION_OFFSET + 1n).toString(), { version: 1, query: true }],
  [(QUERY_VERSION_OFFSET + 3n).toString(), { version: 3, query: true }],
]);

const big = (hex: string) => BigInt(hex);
const bigs = (hexes: readonly string[]) => hexes.map(big);

/** A wire INVOKE transaction (validated) as the engine's transaction. */
export function invokeFromWire(w: InvokeWire): InvokeTransaction {
  const v = VERSIONS.get(BigInt(w.version).toString())!;
  const common = { query: v.query, senderAddress: big(w.sender_address), calldata: bigs(w.calldata), signature: bigs(w.signature), nonce: big(w.nonce) };
  if (!('resource_bounds' in w)) return { ...common, version: 1, maxFee: big(w.max_fee) };
  const rb = w.resource_bounds;
  const bound = (b: { max_amount: string; max_price_per_unit: string }) => ({ maxAmount: big(b.max_amount), maxPricePerUnit: big(b.max_price_per_unit) });
  return {
    ...common,
    version: 3,
    resourceBounds: { l1Gas: bound(rb.l1_gas), l2Gas: bound(rb.l2_gas), ...(rb.l1_data_gas === undefined ? {} : { l1DataGas: bound(rb.l1_data_gas) }) },
    tip: big(w.tip),
    paymasterData: bigs(w.paymaster_data),
    accountDeploymentData: bigs(w.account_deployment_data),
    nonceDataAvailabilityMode: w.nonce_data_availability_mode,
    feeDataAvailabilityMode: w.fee_data_availability_mode,
  };
}

/** An INVOKE transaction: v1 or v3, or their query versions; the version picks the members wanted. */
export const invokeTransaction: Decoder<InvokeTransaction> = (value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InvalidArgument(`expected an INVOKE transaction object, got ${describe(value)}`);
  const o = value as Record<string, unknown>;
  if (o.type !== 'INVOKE') throw new InvalidArgument(`"type": want "INVOKE", got ${describe(o.type)}`);
  let v;
  try {
    v = typeof o.version === 'string' ? VERSIONS.get(BigInt(o.version).toString()) : undefined;
  } catch {
    v = undefined;
  }
  if (v === undefined)
    throw new InvalidArgument(
      `"version": want 0x1, 0x3 or their query versions 0x100000000000000000000000000000001 and 0x100000000000000000000000000000003, got ${describe(o.version)}`,
    );
  const canonical = { ...o, version: '0x' + (BigInt(v.version) + (v.query ? QUERY_VERSION_OFFSET : 0n)).toString(16) };
  return invokeFromWire(v.version === 1 ? fromSchema(InvokeV1Wire)(canonical) : fromSchema(InvokeV3Wire)(canonical));
};

/** A wire outcome (validated) as the engine's; event and message senders default to `sender`. */
export function outcomeFromWire(w: OutcomeWire | undefined, sender: Felt): OutcomeInput | undefined {
  if (w === undefined) return undefined;
  return {
    events: w.events?.map((e) => ({ fromAddress: e.from_address === undefined ? sender : big(e.from_address), keys: bigs(e.keys), data: bigs(e.data) })),
    messages: w.messages_sent?.map((m) => ({
      fromAddress: m.from_address === undefined ? sender : big(m.from_address),
      toAddress: big(m.to_address),
      payload: bigs(m.payload),
    })),
    storageWrites: w.storage_writes?.map((s) => ({ contractAddress: big(s.contract_address), key: big(s.key), value: big(s.value) })),
  };
}

/** The outcome a submitter gives (`events`, `messages_sent`, `storage_writes`), still in wire form. */
export const outcome: Decoder<OutcomeWire> = fromSchema(OutcomeWire);

/** Simulation flags of rollup_estimateFee: `SKIP_VALIDATE` skips the signature check. */
export const simulationFlags: Decoder<{ skipValidate: boolean; skipFeeCharge: boolean }> = (value) => {
  if (!Array.isArray(value)) throw new InvalidArgument(`expected an array of simulation flags, got ${describe(value)}`);
  for (const [i, f] of value.entries()) {
    if (f !== 'SKIP_VALIDATE' && f !== 'SKIP_FEE_CHARGE')
      throw new InvalidArgument(`"${i}": unknown simulation flag ${describe(f)}, want SKIP_VALIDATE or SKIP_FEE_CHARGE`);
  }
  return { skipValidate: value.includes('SKIP_VALIDATE'), skipFeeCharge: value.includes('SKIP_FEE_CHARGE') };
};

/** A time in seconds: a non-negative JSON integer. */
export const seconds: Decoder<bigint> = (value) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new InvalidArgument(`expected a non-negative integer number of seconds, got ${describe(value)}`);
  return BigInt(value);
};

/** A wire Sierra class (validated) as the engine's. */
export function classFromWire(w: ContractClassWire): SierraClass {
  const eps = (list: ContractClassWire['entry_points_by_type']['EXTERNAL']) => list.map((e) => ({ selector: big(e.selector), functionIdx: e.function_idx }));
  return {
    sierraProgram: bigs(w.sierra_program),
    contractClassVersion: w.contract_class_version,
    entryPoints: {
      constructor: eps(w.entry_points_by_type.CONSTRUCTOR),
      external: eps(w.entry_points_by_type.EXTERNAL),
      l1Handler: eps(w.entry_points_by_type.L1_HANDLER),
    },
    abi: w.abi,
  };
}

/** A wire class with its hash computed. */
export function declaredClass(w: ContractClassWire, compiledClassHash: Felt): DeclaredClass {
  const contractClass = classFromWire(w);
  return { classHash: sierraClassHash(contractClass), compiledClassHash, contractClass };
}

type V3Wire = {
  version: string;
  signature: string[];
  nonce: string;
  resource_bounds: { l1_gas: BoundWire; l2_gas: BoundWire; l1_data_gas?: BoundWire };
  tip: string;
  paymaster_data: string[];
  nonce_data_availability_mode: 'L1' | 'L2';
  fee_data_availability_mode: 'L1' | 'L2';
};
type BoundWire = { max_amount: string; max_price_per_unit: string };

function v3FromWire(w: V3Wire) {
  const bound = (b: BoundWire) => ({ maxAmount: big(b.max_amount), maxPricePerUnit: big(b.max_price_per_unit) });
  const rb = w.resource_bounds;
  const resourceBounds: ResourceBounds = {
    l1Gas: bound(rb.l1_gas),
    l2Gas: bound(rb.l2_gas),
    ...(rb.l1_data_gas === undefined ? {} : { l1DataGas: bound(rb.l1_data_gas) }),
  };
  return {
    version: 3 as const,
    query: BigInt(w.version) !== 3n,
    signature: bigs(w.signature),
    nonce: big(w.nonce),
    resourceBounds,
    tip: big(w.tip),
    paymasterData: bigs(w.paymaster_data),
    nonceDataAvailabilityMode: w.nonce_data_availability_mode,
    feeDataAvailabilityMode: w.fee_data_availability_mode,
  };
}

/** A version string in canonical form (`0x03` -> `0x3`), for the schemas' enums. */
function canonicalVersion(o: Record<string, unknown>): Record<string, unknown> {
  try {
    return typeof o.version === 'string' ? { ...o, version: '0x' + BigInt(o.version).toString(16) } : o;
  } catch {
    return o;
  }
}

/** A DEPLOY_ACCOUNT v3 transaction (or its query version). */
export const deployAccountTransaction: Decoder<DeployAccountV3> = (value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InvalidArgument(`expected a DEPLOY_ACCOUNT transaction object, got ${describe(value)}`);
  const w = fromSchema(DeployAccountV3Wire)(canonicalVersion(value as Record<string, unknown>));
  return {
    kind: 'DEPLOY_ACCOUNT',
    ...v3FromWire(w),
    classHash: big(w.class_hash),
    contractAddressSalt: big(w.contract_address_salt),
    constructorCalldata: bigs(w.constructor_calldata),
  };
};

/** A DECLARE v3 transaction (or its query version) with its class; the class hash is computed from the class. */
export const declareTransaction: Decoder<DeclareV3> = (value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InvalidArgument(`expected a DECLARE transaction object, got ${describe(value)}`);
  const w = fromSchema(DeclareV3Wire)(canonicalVersion(value as Record<string, unknown>));
  const d = declaredClass(w.contract_class, big(w.compiled_class_hash));
  return {
    kind: 'DECLARE',
    ...v3FromWire(w),
    senderAddress: big(w.sender_address),
    classHash: d.classHash,
    compiledClassHash: d.compiledClassHash,
    contractClass: d.contractClass,
    accountDeploymentData: bigs(w.account_deployment_data),
  };
};

/** A BROADCASTED_TXN: INVOKE, DEPLOY_ACCOUNT or DECLARE, by its `type`. */
export const broadcastedTransaction: Decoder<RollupTransaction> = (value) => {
  const type = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>).type : undefined;
  if (type === 'DEPLOY_ACCOUNT') return deployAccountTransaction(value);
  if (type === 'DECLARE') return declareTransaction(value);
  if (type === 'INVOKE') return invokeTransaction(value);
  throw new InvalidArgument(`"type": want "INVOKE", "DEPLOY_ACCOUNT" or "DECLARE", got ${describe(type)}`);
};

/** An L1 (Ethereum) transaction hash: 32 bytes of hex, not a felt (it may exceed the field prime). */
export const l1TransactionHash: Decoder<bigint> = (value) => {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value))
    throw new InvalidArgument(`expected an L1 transaction hash (0x and up to 64 hex digits), got ${describe(value)}`);
  return BigInt(value);
};
