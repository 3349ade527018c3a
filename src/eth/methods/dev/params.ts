/** Param decoders of the dev methods (evm_, anvil_, hardhat_): test tools send some numbers as JSON numbers, some as hex. */
import { InvalidArgument } from '../../../errors.js';
import { describe, object, quantityOf, type Decoder } from '../../../rpc/params.js';

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

/** evm_mine's (and *_mine_detailed's) one param: a timestamp (hardhat, ganache), or anvil's `{ timestamp, blocks }`. */
export const mineOptions = (value: unknown): { timestamp?: bigint; blocks?: bigint } => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { timestamp: numberOrQuantity(value) };
  const o = object(value);
  const read = (name: string) => (Object.hasOwn(o, name) && o[name] !== null && o[name] !== undefined ? numberOrQuantity(o[name]) : undefined);
  const unknown = Object.keys(o).find((k) => k !== 'timestamp' && k !== 'blocks');
  if (unknown !== undefined) throw new InvalidArgument(`unknown option ${JSON.stringify(unknown)}, want timestamp, blocks`);
  return { timestamp: read('timestamp'), blocks: read('blocks') };
};
