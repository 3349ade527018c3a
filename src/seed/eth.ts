/** The devgate seed format of an `eth` network, as a zod schema (the JSON Schema is generated from it). */
import { z } from 'zod';

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'not a 0x-prefixed hex string');
const evenHex = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'not 0x-prefixed hex bytes (even number of digits)');
const quantity = z.union([z.string().regex(/^(0x[0-9a-fA-F]+|[0-9]+)$/, 'not a hex or decimal quantity'), z.number().int().nonnegative()]);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'not a 20-byte address');
const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'not a 32-byte hex value');
/** A contract label: `@token` names the contract a creation with `"label": "token"` made earlier in the seed. */
const LABEL_RE = '@[A-Za-z0-9_-]+';
const target = z.string().regex(new RegExp(`^(0x[0-9a-fA-F]{40}|${LABEL_RE})$`), 'not a 20-byte address (or an @label of a contract created earlier)');

export const HARDFORKS = [
  'chainstart', 'homestead', 'dao', 'tangerineWhistle', 'spuriousDragon', 'byzantium', 'constantinople',
  'petersburg', 'istanbul', 'muirGlacier', 'berlin', 'london', 'arrowGlacier', 'grayGlacier', 'paris',
  'shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2',
] as const;

export const AllocAccount = z.object({
  balance: quantity.optional(),
  nonce: quantity.optional(),
  code: evenHex.optional(),
  storage: z.record(hex, hex).optional(),
});

/** The dev accounts: derived from a BIP-39 mnemonic at m/44'/60'/0'/0/i and funded at genesis. */
export const DevAccounts = z
  .object({
    mnemonic: z.string().default('test test test test test test test test test test test junk'),
    count: z.number().int().min(0).max(1000).default(10),
    /** Balance of each, in wei (default 10000 ETH). */
    balance: quantity.default('10000000000000000000000'),
  })
  .strict();

/**
 * A seeded transaction: either `raw` (a transaction signed elsewhere, its serialized bytes) alone,
 * or the fields of a transaction the seed signs with a dev account's key.
 */
export const TxSpec = z
  .object({
    raw: evenHex.optional(),
    /** The sender: a dev account index (default 0) or a dev account's address. */
    from: z
      .union([z.number(), z.string()])
      .refine((v) => (typeof v === 'number' ? Number.isInteger(v) && v >= 0 : /^0x[0-9a-fA-F]{40}$/.test(v)), 'not a dev account index or a 20-byte address')
      .optional(),
    /** Receiver; absent for a contract creation. An `@label` names a contract created earlier. */
    to: target.optional(),
    value: quantity.optional(),
    /** Call data, or the init code of a creation. */
    data: evenHex.optional(),
    /** A compiled artifact of chains/contracts (`Token` -> chains/contracts/Token.json) to deploy, or whose ABI `function` is looked up in. */
    artifact: z.string().regex(/^[A-Za-z0-9_]+$/, 'not an artifact name').optional(),
    /** A function to call: a signature `transfer(address,uint256)` or, with `artifact`, a function name. */
    function: z.string().min(1).optional(),
    /** Constructor (with `artifact` and no `to`) or function arguments; `@label` strings become contract addresses. */
    args: z.array(z.unknown()).optional(),
    /** Names the created contract for later `@label` references. */
    label: z.string().regex(/^[A-Za-z0-9_-]+$/, 'labels are letters, digits, _ and -').optional(),
    gas: quantity.optional(),
    type: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
    gasPrice: quantity.optional(),
    maxFeePerGas: quantity.optional(),
    maxPriorityFeePerGas: quantity.optional(),
    accessList: z.array(z.object({ address, storageKeys: z.array(bytes32) }).strict()).optional(),
    nonce: quantity.optional(),
  })
  .strict()
  .superRefine((tx, ctx) => {
    if (tx.raw !== undefined) {
      const others = Object.keys(tx).filter((k) => k !== 'raw');
      if (others.length > 0) ctx.addIssue({ code: 'custom', path: [others[0]!], message: 'a raw transaction takes no other fields' });
    }
    if (tx.function !== undefined && tx.to === undefined) ctx.addIssue({ code: 'custom', path: ['to'], message: 'a function call needs `to`' });
  });

export const SeedBlock = z
  .object({
    /** Default: parent timestamp + 12. */
    timestamp: quantity.optional(),
    coinbase: address.optional(),
    transactions: z.array(TxSpec).default([]),
  })
  .strict();

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
      extraData: evenHex.optional(),
      coinbase: address.optional(),
      difficulty: quantity.optional(),
    })
    .strict()
    .prefault({}),
  alloc: z.record(address, AllocAccount).default({}),
  accounts: DevAccounts.prefault({}),
  blocks: z.array(SeedBlock).default([]),
  /** Transactions left in the pending pool, in order. */
  pending: z.array(TxSpec).default([]),
});

export type EthSeed = z.infer<typeof EthSeed>;
export type AllocAccount = z.infer<typeof AllocAccount>;
export type TxSpec = z.infer<typeof TxSpec>;
export type SeedBlock = z.infer<typeof SeedBlock>;
