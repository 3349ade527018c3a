/** The devgate seed format of an `eth` network, as a zod schema (the JSON Schema is generated from it). */
import { z } from 'zod';

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'not a 0x-prefixed hex string');
const quantity = z.union([z.string().regex(/^(0x[0-9a-fA-F]+|[0-9]+)$/, 'not a hex or decimal quantity'), z.number().int().nonnegative()]);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'not a 20-byte address');

export const HARDFORKS = [
  'chainstart', 'homestead', 'dao', 'tangerineWhistle', 'spuriousDragon', 'byzantium', 'constantinople',
  'petersburg', 'istanbul', 'muirGlacier', 'berlin', 'london', 'arrowGlacier', 'grayGlacier', 'paris',
  'shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2',
] as const;

export const AllocAccount = z.object({
  balance: quantity.optional(),
  nonce: quantity.optional(),
  code: hex.optional(),
  storage: z.record(hex, hex).optional(),
});

export const EthSeed = z.object({
  $schema: z.string().optional(),
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'network names are lowercase letters, digits and dashes'),
  kind: z.literal('eth'),
  chainId: z.number().int().positive(),
  hardfork: z.enum(HARDFORKS).default('osaka'),
  genesis: z
    .object({
      timestamp: quantity.optional(),
      gasLimit: quantity.optional(),
      baseFeePerGas: quantity.optional(),
      extraData: hex.optional(),
      coinbase: address.optional(),
      difficulty: quantity.optional(),
    })
    .default({}),
  alloc: z.record(address, AllocAccount).default({}),
});

export type EthSeed = z.infer<typeof EthSeed>;
export type AllocAccount = z.infer<typeof AllocAccount>;
