/**
 * The devgate seed format of a `rollup` network (Starknet-style), as a zod schema. Transactions and
 * outcomes use the wire shapes of the rollup_ methods, so a seed reads like RPC traffic.
 */
import { getStarkKey } from '@scure/starknet';
import { z } from 'zod';

/** 2^251 + 17 * 2^192 + 1: the Stark field prime. */
export const FELT_PRIME = (1n << 251n) + 17n * (1n << 192n) + 1n;
const QUERY = 1n << 128n;

const HEX = /^0x[0-9a-fA-F]{1,64}$/;

export const Felt = z
  .string()
  .regex(HEX, 'not a felt: want 0x-prefixed hex')
  .refine((v) => !HEX.test(v) || BigInt(v) < FELT_PRIME, 'not a felt: at least the field prime 2^251 + 17 * 2^192 + 1');
/** Most felts in one list (calldata, signature, event keys or data, payload), as Starknet's gateway allows. */
export const MAX_FELTS = 4_000;
/** Most events, messages or storage writes in one outcome. */
export const MAX_OUTCOME_ITEMS = 1_000;
const Felts = z.array(Felt).max(MAX_FELTS, `at most ${MAX_FELTS} felts`);
const Amount = z.string().regex(HEX, 'not a 0x-prefixed hex amount');

const uint = (bits: number) => Amount.refine((v) => !HEX.test(v) || BigInt(v) < 1n << BigInt(bits), `more than ${bits} bits`);
const U64 = uint(64);
const U128 = uint(128);

export const ResourceBoundWire = z.object({ max_amount: U64, max_price_per_unit: U128 }).strict();
const DaMode = z.enum(['L1', 'L2']);

/** INVOKE v1 (or its query version): fee in wei, at most `max_fee`. */
export const InvokeV1Wire = z
  .object({
    type: z.literal('INVOKE'),
    version: z.enum(['0x1', '0x' + (QUERY + 1n).toString(16)]),
    sender_address: Felt,
    calldata: Felts,
    signature: Felts,
    nonce: Felt,
    max_fee: Felt,
  })
  .strict();

/** INVOKE v3 (or its query version): fee in fri, bounded by resource bounds. */
export const InvokeV3Wire = z
  .object({
    type: z.literal('INVOKE'),
    version: z.enum(['0x3', '0x' + (QUERY + 3n).toString(16)]),
    sender_address: Felt,
    calldata: Felts,
    signature: Felts,
    nonce: Felt,
    resource_bounds: z.object({ l1_gas: ResourceBoundWire, l2_gas: ResourceBoundWire, l1_data_gas: ResourceBoundWire.optional() }).strict(),
    tip: U64.default('0x0'),
    paymaster_data: Felts.default([]),
    account_deployment_data: Felts.default([]),
    nonce_data_availability_mode: DaMode.default('L1'),
    fee_data_availability_mode: DaMode.default('L1'),
  })
  .strict();

const V3_VERSION = z.enum(['0x3', '0x' + (QUERY + 3n).toString(16)]);
const V3_FEE_FIELDS = {
  signature: Felts,
  nonce: Felt,
  resource_bounds: z.object({ l1_gas: ResourceBoundWire, l2_gas: ResourceBoundWire, l1_data_gas: ResourceBoundWire.optional() }).strict(),
  tip: U64.default('0x0'),
  paymaster_data: Felts.default([]),
  nonce_data_availability_mode: DaMode.default('L1'),
  fee_data_availability_mode: DaMode.default('L1'),
};

/** DEPLOY_ACCOUNT v3 (or its query version): deploys an account at the address salt, class and calldata give. */
export const DeployAccountV3Wire = z
  .object({
    type: z.literal('DEPLOY_ACCOUNT'),
    version: V3_VERSION,
    class_hash: Felt,
    contract_address_salt: Felt,
    constructor_calldata: Felts,
    ...V3_FEE_FIELDS,
  })
  .strict();
export type DeployAccountV3Wire = z.infer<typeof DeployAccountV3Wire>;

export const InvokeWire = z.discriminatedUnion('version', [InvokeV1Wire, InvokeV3Wire]);
export type InvokeWire = z.infer<typeof InvokeWire>;

/** What a transaction did: the simulation's outcome, given by whoever submits it. */
export const OutcomeWire = z
  .object({
    /** `from_address` defaults to the sender. */
    events: z
      .array(z.object({ from_address: Felt.optional(), keys: Felts, data: Felts }).strict())
      .max(MAX_OUTCOME_ITEMS)
      .optional(),
    messages_sent: z
      .array(z.object({ from_address: Felt.optional(), to_address: Felt, payload: Felts }).strict())
      .max(MAX_OUTCOME_ITEMS)
      .optional(),
    storage_writes: z
      .array(z.object({ contract_address: Felt, key: Felt, value: Felt }).strict())
      .max(MAX_OUTCOME_ITEMS)
      .optional(),
  })
  .strict();
export type OutcomeWire = z.infer<typeof OutcomeWire>;

/** Most felts in a Sierra program (a real class has tens of thousands; Starknet caps class size too). */
export const MAX_PROGRAM_FELTS = 200_000;
const SierraEntryPointWire = z.object({ selector: Felt, function_idx: z.number().int().nonnegative() }).strict();

/** A Sierra contract class as the Starknet JSON-RPC carries it (CONTRACT_CLASS); `abi` is the ABI's JSON text. */
export const ContractClassWire = z
  .object({
    sierra_program: z.array(Felt).min(1).max(MAX_PROGRAM_FELTS, `at most ${MAX_PROGRAM_FELTS} felts`),
    contract_class_version: z.string().regex(/^[0-9]+\.[0-9]+\.[0-9]+$/, 'a version like 0.1.0'),
    entry_points_by_type: z
      .object({ CONSTRUCTOR: z.array(SierraEntryPointWire), EXTERNAL: z.array(SierraEntryPointWire), L1_HANDLER: z.array(SierraEntryPointWire) })
      .strict(),
    abi: z.string(),
  })
  .strict();
export type ContractClassWire = z.infer<typeof ContractClassWire>;

/** A class the seed declares at genesis: its hash is computed from the class; the compiled (CASM) class hash is as given. */
export const SeedClass = z.object({ compiledClassHash: Felt, contractClass: ContractClassWire }).strict();

/** DECLARE v3 (or its query version) as broadcast: the class itself, its compiled class hash as the declarer gives it. */
export const DeclareV3Wire = z
  .object({
    type: z.literal('DECLARE'),
    version: V3_VERSION,
    sender_address: Felt,
    compiled_class_hash: Felt,
    contract_class: ContractClassWire,
    account_deployment_data: Felts.default([]),
    ...V3_FEE_FIELDS,
  })
  .strict();
export type DeclareV3Wire = z.infer<typeof DeclareV3Wire>;

const SeedTransaction = z.object({ transaction: InvokeWire, outcome: OutcomeWire.optional() }).strict();

const gweiMultiple = U128.refine((v) => !HEX.test(v) || BigInt(v) % 1_000_000_000n === 0n, 'must be a whole number of gwei (a multiple of 10^9)');

export const L1Acceptance = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('manual') }).strict(),
  z.object({ kind: z.literal('time'), delayMs: z.number().int().nonnegative() }).strict(),
  z.object({ kind: z.literal('blocks'), network: z.string().min(1), blocks: z.number().int().positive() }).strict(),
]);

const SeedBlock = z
  .object({
    timestamp: z.number().int().nonnegative(),
    status: z.enum(['ACCEPTED_ON_L2', 'ACCEPTED_ON_L1', 'REJECTED']).default('ACCEPTED_ON_L2'),
    transactions: z.array(SeedTransaction).default([]),
  })
  .strict();

export const RollupSeed = z
  .object({
    $schema: z.string().optional(),
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'network names are lowercase letters, digits and dashes'),
    kind: z.literal('rollup'),
    /** The chain id as a short string, e.g. SN_MAIN. */
    chainId: z.string().regex(/^[A-Za-z0-9_]{1,31}$/, 'a short string of at most 31 letters, digits or underscores'),
    /** The network's own method prefix: methods answer under `rollup_` and `<prefix>_`. */
    prefix: z
      .string()
      .regex(/^[a-z][a-z0-9]*$/, 'lowercase letters and digits')
      .refine((p) => p !== 'rollup' && p !== 'devnet', 'rollup and devnet are taken')
      .default('starknet'),
    starknetVersion: z
      .string()
      .regex(/^[\x20-\x7e]{1,31}$/, 'at most 31 printable ASCII characters')
      .default('0.13.4'),
    sequencerAddress: Felt,
    /** The L1 gas price of every block, in wei and in fri. */
    gasPrices: z.object({ wei: gweiMultiple, fri: gweiMultiple }).strict(),
    /** The L1 data gas (blob) price of every block, in wei and fri; absent: the L1 gas prices. Shown by starknet_ block headers. */
    dataGasPrices: z.object({ wei: Amount, fri: Amount }).strict().optional(),
    /** The L2 gas price of every block, in wei and fri; absent: the L1 gas prices. Shown by starknet_ block headers. */
    l2GasPrices: z.object({ wei: Amount, fri: Amount }).strict().optional(),
    /** The fee-token contracts whose views starknet_call answers from the balances: ETH (wei, v1 fees) and STRK (fri, v3 fees). */
    feeTokens: z.object({ eth: Felt, strk: Felt }).strict().default({
      eth: '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
      strk: '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d',
    }),
    /** How blocks post their state diff to L1 (the `l1_da_mode` of starknet_ block headers). */
    l1DaMode: z.enum(['BLOB', 'CALLDATA']).default('BLOB'),
    /** Seal the pending block every this many ms; absent: only on demand (devnet_createBlock). */
    blockTimeMs: z.number().int().positive().optional(),
    l1Acceptance: L1Acceptance.default({ kind: 'manual' }),
    /** Timestamp of the genesis block when `blocks` is empty. */
    genesisTimestamp: z.number().int().nonnegative().default(0),
    /** Sierra classes declared at genesis (starknet_getClass / getClassAt serve them; DEPLOY_ACCOUNT deploys them). */
    classes: z.array(SeedClass).default([]),
    /** Addresses funded before anything is deployed there (for a DEPLOY_ACCOUNT to pay its fee). */
    fundedAddresses: z.array(z.object({ address: Felt, balance: U128.default('0x0'), strkBalance: U128.default('0x0') }).strict()).default([]),
    accounts: z
      .array(
        z
          .object({
            address: Felt,
            publicKey: Felt,
            /** Optional: devnet_getPredeployedAccounts shows it; it must be the key of publicKey. */
            privateKey: Felt.optional(),
            classHash: Felt.default('0x0'),
            nonce: Felt.default('0x0'),
            /** ETH in wei (pays v1 fees), below 2^128. */
            balance: U128.default('0x0'),
            /** STRK in fri (pays v3 fees), below 2^128. */
            strkBalance: U128.default('0x0'),
          })
          .strict(),
      )
      .default([]),
    contracts: z.array(z.object({ address: Felt, classHash: Felt, storage: z.record(z.string(), Felt).default({}) }).strict()).default([]),
    /** Blocks from genesis on, each built on the previous non-rejected one. */
    blocks: z.array(SeedBlock).default([]),
    /** Transactions waiting in the pending block. */
    pending: z.array(SeedTransaction).default([]),
  })
  .strict()
  .superRefine((seed, ctx) => {
    const addresses = new Set<bigint>();
    const all = [
      ...seed.accounts.map((a, i) => ['accounts', i, a.address] as const),
      ...seed.contracts.map((c, i) => ['contracts', i, c.address] as const),
      ...seed.fundedAddresses.map((f, i) => ['fundedAddresses', i, f.address] as const),
    ];
    for (const [list, i, address] of all) {
      if (addresses.has(BigInt(address))) ctx.addIssue({ code: 'custom', path: [list, i, 'address'], message: `address ${address} is listed twice` });
      addresses.add(BigInt(address));
    }
    seed.accounts.forEach((a, i) => {
      if (a.privateKey !== undefined && BigInt(getStarkKey(a.privateKey)) !== BigInt(a.publicKey)) {
        ctx.addIssue({ code: 'custom', path: ['accounts', i, 'privateKey'], message: 'not the private key of publicKey' });
      }
    });
    seed.contracts.forEach((c, i) => {
      for (const key of Object.keys(c.storage)) {
        if (!Felt.safeParse(key).success) ctx.addIssue({ code: 'custom', path: ['contracts', i, 'storage', key], message: 'storage keys must be felts' });
      }
    });
    let sawL2 = false;
    seed.blocks.forEach((b, i) => {
      if (b.status === 'ACCEPTED_ON_L2') sawL2 = true;
      if (b.status === 'ACCEPTED_ON_L1' && sawL2) {
        ctx.addIssue({
          code: 'custom',
          path: ['blocks', i, 'status'],
          message: 'ACCEPTED_ON_L1 after an ACCEPTED_ON_L2 block: accepting a block on L1 accepts its ancestors',
        });
      }
      if (b.status === 'REJECTED' && i === 0) ctx.addIssue({ code: 'custom', path: ['blocks', 0, 'status'], message: 'the genesis block cannot be rejected' });
      if (i > 0 && b.timestamp < seed.blocks[i - 1]!.timestamp)
        ctx.addIssue({ code: 'custom', path: ['blocks', i, 'timestamp'], message: "before the previous block's timestamp" });
    });
  });

export type RollupSeed = z.infer<typeof RollupSeed>;
