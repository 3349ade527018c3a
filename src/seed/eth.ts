/**
 * The devgate seed format of an `eth` network, as a zod schema (chains/seed.schema.json is generated
 * from it by scripts/seed-schema.ts). Every block is really executed; transactions are signed with
 * the dev accounts' keys, and fields left out are filled in as a wallet would (nonce, fees, gas).
 *
 * @example
 * {
 *   "name": "local", "kind": "eth", "chainId": 31337, "hardfork": "osaka",
 *   "accounts": { "count": 10 },
 *   "blocks": [
 *     { "transactions": [{ "artifact": "Token", "label": "token" }] },
 *     { "transactions": [
 *       { "to": "@token", "artifact": "Token", "function": "transfer", "args": ["0x00000000000000000000000000000000000000b1", "1000"] },
 *       { "from": 1, "type": 0, "to": "0x00000000000000000000000000000000000000b2", "value": "0x1" }
 *     ] }
 *   ],
 *   "pending": [{ "from": 2, "to": "0x00000000000000000000000000000000000000b3", "value": "1" }]
 * }
 */
import { z } from 'zod';

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'not a 0x-prefixed hex string');
const evenHex = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'not 0x-prefixed hex bytes (even number of digits)');
const quantity = z.union([z.string().regex(/^(0x[0-9a-fA-F]+|[0-9]+)$/, 'not a hex or decimal quantity'), z.number().int().nonnegative()]);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'not a 20-byte address');
const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'not a 32-byte hex value');
/** A contract label: `@token` names the contract a creation with `"label": "token"` made earlier in the seed. */
const LABEL_RE = '@[A-Za-z0-9_-]+';
const target = z.string().regex(new RegExp(`^(0x[0-9a-fA-F]{40}|${LABEL_RE})$`), 'not a 20-byte address (or an @label of a contract created earlier)');

/** The well-known contracts a seed may put at genesis (src/eth/engine/build/predeploys.ts has their addresses and code). */
export const PREDEPLOY_NAMES = ['multicall3', 'create2Deployer'] as const;
export type PredeployName = (typeof PREDEPLOY_NAMES)[number];

export const HARDFORKS = [
  'chainstart',
  'homestead',
  'dao',
  'tangerineWhistle',
  'spuriousDragon',
  'byzantium',
  'constantinople',
  'petersburg',
  'istanbul',
  'muirGlacier',
  'berlin',
  'london',
  'arrowGlacier',
  'grayGlacier',
  'paris',
  'shanghai',
  'cancun',
  'prague',
  'osaka',
  'bpo1',
  'bpo2',
] as const;
export type Hardfork = (typeof HARDFORKS)[number];

/** Whether `hardfork` is `since` or a later one. */
export function hardforkAtLeast(hardfork: Hardfork, since: Hardfork): boolean {
  return HARDFORKS.indexOf(hardfork) >= HARDFORKS.indexOf(since);
}

export const AllocAccount = z.object({
  balance: quantity.optional(),
  nonce: quantity.optional(),
  code: evenHex.optional(),
  storage: z.record(hex, hex).optional(),
});

/** The dev accounts: derived from a BIP-39 mnemonic at m/44'/60'/0'/0/i and funded at genesis. */
export const DevAccounts = z
  .object({
    mnemonic: z.string().default('test test test test test test test test test test test junk').describe("BIP-39 mnemonic; accounts at m/44'/60'/0'/0/i."),
    count: z.number().int().min(0).max(1000).default(10).describe('How many dev accounts (default 10).'),
    balance: quantity.default('10000000000000000000000').describe('Balance of each, in wei (default 10000 ETH).'),
  })
  .strict();

/**
 * A seeded transaction: either `raw` (a transaction signed elsewhere, its serialized bytes) alone,
 * or the fields of a transaction the seed signs with a dev account's key.
 */
export const TxSpec = z
  .object({
    raw: evenHex.optional().describe('A transaction signed elsewhere: its serialized bytes (legacy RLP or typed envelope). Takes no other field.'),
    from: z
      .union([z.number(), z.string()])
      .refine((v) => (typeof v === 'number' ? Number.isInteger(v) && v >= 0 : /^0x[0-9a-fA-F]{40}$/.test(v)), 'not a dev account index or a 20-byte address')
      .optional()
      .describe("The sender: a dev account index (default 0) or a dev account's address."),
    to: target.optional().describe('Receiver; absent for a contract creation. An `@label` names a contract created earlier.'),
    value: quantity.optional().describe('Wei sent (default 0).'),
    data: evenHex.optional().describe('Call data, or the init code of a creation.'),
    artifact: z
      .string()
      .regex(/^(?:[A-Za-z0-9_]+|.+\.json)$/, 'not an artifact name or a path to a .json artifact')
      .optional()
      .describe(
        "A compiled artifact to deploy, or whose ABI `function` is looked up in: a name (`Token` -> the seed's contracts/Token.json, else chains/contracts/Token.json) or a path ending in .json, relative to the seed file: a Hardhat artifact (artifacts/.../X.json) or Foundry's (out/X.sol/X.json).",
      ),
    function: z.string().min(1).optional().describe('A function to call: a signature `transfer(address,uint256)` or, with `artifact`, a function name.'),
    args: z
      .array(z.unknown())
      .optional()
      .describe('Constructor (with `artifact` and no `to`) or function arguments; `@label` strings become contract addresses (`@@x` is the string `@x`).'),
    label: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'labels are letters, digits, _ and -')
      .optional()
      .describe('Names the created contract for later `@label` references.'),
    gas: quantity.optional().describe('Gas limit (default: estimated in the block, with a 25% margin; exactly 21000 for plain transfers).'),
    type: z
      .union([z.literal(0), z.literal(1), z.literal(2)])
      .optional()
      .describe('0 legacy, 1 access list (EIP-2930), 2 fee market (EIP-1559; the default from london on).'),
    gasPrice: quantity.optional().describe('Types 0 and 1 (default: base fee + 1 gwei).'),
    maxFeePerGas: quantity.optional().describe('Type 2 (default: 2 x base fee + priority fee).'),
    maxPriorityFeePerGas: quantity.optional().describe('Type 2 (default 1 gwei).'),
    accessList: z.array(z.object({ address, storageKeys: z.array(bytes32) }).strict()).optional(),
    nonce: quantity.optional().describe('Default: the next nonce of the sender.'),
  })
  .strict()
  .superRefine((tx, ctx) => {
    if (tx.raw !== undefined) {
      const others = Object.keys(tx).filter((k) => k !== 'raw');
      if (others.length > 0) ctx.addIssue({ code: 'custom', path: [others[0]!], message: 'a raw transaction takes no other fields' });
    }
    if (tx.function !== undefined && tx.to === undefined) ctx.addIssue({ code: 'custom', path: ['to'], message: 'a function call needs `to`' });
  })
  .meta({ id: 'EthTransaction' });

/** A seed's `fork` field (docs/fork.md). */
export const ForkSpec = z
  .object({
    url: z.url({ protocol: /^https?$/ }).describe("The upstream's JSON-RPC URL (http or https)."),
    blockNumber: z.number().int().nonnegative().optional().describe("The fork block (default: the upstream's latest, pinned at start)."),
    headers: z.record(z.string(), z.string()).optional().describe('HTTP headers sent upstream, e.g. an Authorization header.'),
    retries: z.number().int().nonnegative().optional().describe('Retries of a failed upstream request (default 5).'),
  })
  .strict();

export const SeedBlock = z
  .object({
    timestamp: quantity.optional().describe('Default: parent timestamp + 12.'),
    coinbase: address.optional().describe("Fee recipient (default: the parent block's)."),
    transactions: z.array(TxSpec).default([]),
  })
  .strict();

export const EthSeed = z
  .object({
    $schema: z.string().optional(),
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'network names are lowercase letters, digits and dashes'),
    kind: z.literal('eth'),
    chainId: z.number().int().positive().optional().describe('EIP-155 chain id (required, except with gethGenesis, whose config.chainId it defaults to).'),
    hardfork: z.enum(HARDFORKS).default('osaka').describe('The rules every block runs under (default osaka).'),
    genesis: z
      .object({
        timestamp: quantity.optional().describe('Unix seconds (default 0); each block adds 12 unless it gives its own.'),
        gasLimit: quantity.optional().describe('Default 30000000; blocks keep it.'),
        baseFeePerGas: quantity.optional().describe('London on (default 1 gwei); later blocks follow EIP-1559.'),
        extraData: evenHex.optional(),
        coinbase: address.optional(),
        difficulty: quantity.optional().describe('Default 131072 before paris, 0 from paris on.'),
      })
      .strict()
      .prefault({}),
    alloc: z.record(address, AllocAccount).default({}).describe('Genesis accounts, as in a geth genesis alloc.'),
    predeploys: z
      .array(z.enum(PREDEPLOY_NAMES))
      .default([])
      .describe(
        'Well-known contracts put at genesis with their real code: multicall3 (Multicall3 at 0xcA11bde05977b3631167028862bE2a173976CA11) and create2Deployer (the CREATE2 deployer at 0x4e59b44847b379578588920ca78fbf26c0b4956c). An alloc entry at the same address wins.',
      ),
    codeSizeLimit: z
      .union([z.number().int().positive(), z.literal('unlimited')])
      .optional()
      .describe(
        "The largest contract code in bytes (EIP-170, default 24576; init code may be twice it, EIP-3860), or 'unlimited': anvil's --code-size-limit / --disable-code-size-limit.",
      ),
    accounts: DevAccounts.prefault({}).describe('Dev accounts, funded at genesis.'),
    blocks: z.array(SeedBlock).default([]).describe('Blocks after genesis, each really executed.'),
    pending: z.array(TxSpec).default([]).describe('Transactions left in the pending pool, in order.'),
    safeDepth: z.number().int().nonnegative().default(32).describe('How many blocks the `safe` tag trails `latest` (default 32).'),
    finalizedDepth: z.number().int().nonnegative().default(64).describe('How many blocks the `finalized` tag trails `latest` (default 64).'),
    mining: z
      .object({
        automine: z.boolean().optional().describe('Mine a block for every send (default true, false with blockTime).'),
        blockTime: z.number().positive().optional().describe('Interval mining: a block every blockTime seconds, empty ones too.'),
      })
      .strict()
      .optional()
      .describe("How this network mines unless the gateway's options say otherwise (default: automine)."),
    gethGenesis: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A geth genesis.json (path relative to this file) to start from instead of genesis, alloc and blocks; its config.chainId gives chainId (if both are given they must be equal).',
      ),
    devAccounts: z
      .boolean()
      .optional()
      .describe(
        'With gethGenesis and no rlpChain: fund the dev accounts (`accounts`) at genesis beside its alloc (an alloc entry wins), as anvil --init keeps them. A genesis.json given as a chain file has it on; false keeps the genesis exactly as geth builds it.',
      ),
    rlpChain: z
      .string()
      .min(1)
      .optional()
      .describe('With gethGenesis: a `geth export` file (RLP blocks back to back, optionally gzipped) whose blocks are imported and checked.'),
    fork: ForkSpec.optional().describe(
      'Fork a live chain (docs/fork.md): its state at blockNumber is fetched from url as it is read; chainId comes from there.',
    ),
  })
  .strict()
  .superRefine((seed, ctx) => {
    if (seed.fork !== undefined) {
      for (const field of ['gethGenesis', 'rlpChain'] as const) {
        if (seed[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'a fork takes its chain from its upstream: remove it' });
      }
      if (seed.blocks.length > 0 || seed.pending.length > 0 || Object.keys(seed.alloc).length > 0) {
        ctx.addIssue({ code: 'custom', path: ['fork'], message: 'a fork takes no alloc, blocks or pending transactions' });
      }
      return;
    }
    if (seed.gethGenesis === undefined) {
      if (seed.chainId === undefined)
        ctx.addIssue({ code: 'custom', path: ['chainId'], message: 'required (only a seed with gethGenesis takes it from the genesis file)' });
      if (seed.rlpChain !== undefined) ctx.addIssue({ code: 'custom', path: ['rlpChain'], message: 'an rlpChain needs the gethGenesis it starts from' });
      if (seed.devAccounts !== undefined)
        ctx.addIssue({ code: 'custom', path: ['devAccounts'], message: 'applies to a gethGenesis seed (other seeds fund their accounts)' });
      return;
    }
    if (seed.devAccounts === true && seed.rlpChain !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['devAccounts'], message: "an rlpChain's blocks start from the genesis as geth builds it: remove devAccounts" });
      return;
    }
    const own = { genesis: Object.keys(seed.genesis).length, alloc: Object.keys(seed.alloc).length, blocks: seed.blocks.length, pending: seed.pending.length };
    for (const [field, size] of Object.entries(own)) {
      if (size > 0) ctx.addIssue({ code: 'custom', path: [field], message: `a seed with gethGenesis takes its chain from the geth files: remove ${field}` });
    }
  });

export type EthSeed = z.infer<typeof EthSeed>;
export type AllocAccount = z.infer<typeof AllocAccount>;
export type TxSpec = z.infer<typeof TxSpec>;
export type SeedBlock = z.infer<typeof SeedBlock>;
