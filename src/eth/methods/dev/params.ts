/** Param decoders of the dev methods (evm_, anvil_, hardhat_): test tools send some numbers as JSON numbers, some as hex. */
import { InvalidArgument } from '../../../errors.js';
import { describe, quantityOf, type Decoder } from '../../../rpc/params.js';

const hex64 = quantityOf(64);

/** A non-negative 64-bit number, as a JSON integer (hardhat's helpers) or a hex quantity (viem, ethers). */
export const numberOrQuantity: Decoder<bigint> = (value) => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new InvalidArgument(`expected a non-negative integer, got ${describe(value)}`);
    return BigInt(value);
  }
  if (typeof value === 'string' && /^[0-9]+$/.test(value) && value.length <= 20) return BigInt(value);
  return hex64(value);
};
