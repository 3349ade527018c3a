/** Parameter decoders shared by the devnet_ control methods (starknet-devnet's forms). */
import { InvalidArgument } from '../../errors.js';
import { describe, type Decoder } from '../../rpc/params.js';
import type { FeeUnit } from '../engine/controls.js';

/** `WEI` (ETH) or `FRI` (STRK). */
export const feeUnit: Decoder<FeeUnit> = (value) => {
  if (value === 'WEI' || value === 'FRI') return value;
  throw new InvalidArgument(`want "WEI" or "FRI", got ${describe(value)}`);
};

/**
 * An amount: a JSON number as starknet-devnet takes it (a fractional part is cut off: 3.9 is 3; 1e21
 * is exact), or, for amounts a JSON number cannot carry exactly, a decimal or 0x-hex string.
 */
export const amount: Decoder<bigint> = (value) => {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return BigInt(Math.trunc(value));
  if (typeof value === 'string' && /^(0|[1-9][0-9]{0,77}|0x[0-9a-fA-F]{1,64})$/.test(value)) return BigInt(value);
  throw new InvalidArgument(`want a non-negative number, or a decimal or 0x-hex string, got ${describe(value)}`);
};

/** A snapshot id: a quantity (`0x0`, as evm_snapshot answers) or a JSON integer. */
export const snapshotId: Decoder<bigint> = (value) => {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,15})$/.test(value)) return BigInt(value);
  throw new InvalidArgument(`want a snapshot id (a quantity such as "0x0", as devnet_snapshot answers), got ${describe(value)}`);
};

/** A decimal string of an amount, as starknet-devnet writes balances. */
export const decimal = (n: bigint): string => n.toString(10);
