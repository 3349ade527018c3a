/**
 * The rollup engine's own types: felts as bigints, no hex strings. The formatters in
 * src/rollup/format.ts turn them into wire objects.
 */

/** A Starknet field element (0 <= x < 2^251 + 17 * 2^192 + 1). */
export type Felt = bigint;

/** 2^128: added to a version for query-only (fee estimate) signatures. */
export const QUERY_VERSION_OFFSET = 1n << 128n;

export type BlockStatus = 'PENDING' | 'ACCEPTED_ON_L2' | 'ACCEPTED_ON_L1' | 'REJECTED';

export type DataAvailabilityMode = 'L1' | 'L2';

export interface ResourceBound {
  readonly maxAmount: bigint;
  readonly maxPricePerUnit: bigint;
}

export interface ResourceBounds {
  readonly l1Gas: ResourceBound;
  readonly l2Gas: ResourceBound;
  /** Present in RPC 0.8 transactions; then it is part of the hash, as Starknet 0.13.4 does. */
  readonly l1DataGas?: ResourceBound;
}

/** INVOKE v1: fee in wei, bounded by max_fee; hashed with Pedersen. */
export interface InvokeV1 {
  readonly kind?: 'INVOKE';
  readonly version: 1;
  /** The query version (2^128 + 1) that SDKs sign fee estimates with. */
  readonly query: boolean;
  readonly senderAddress: Felt;
  readonly calldata: readonly Felt[];
  readonly signature: readonly Felt[];
  readonly nonce: Felt;
  readonly maxFee: bigint;
}

/** INVOKE v3: fee in fri, bounded by resource bounds; hashed with Poseidon. */
export interface InvokeV3 {
  readonly kind?: 'INVOKE';
  readonly version: 3;
  readonly query: boolean;
  readonly senderAddress: Felt;
  readonly calldata: readonly Felt[];
  readonly signature: readonly Felt[];
  readonly nonce: Felt;
  readonly resourceBounds: ResourceBounds;
  readonly tip: bigint;
  readonly paymasterData: readonly Felt[];
  readonly accountDeploymentData: readonly Felt[];
  readonly nonceDataAvailabilityMode: DataAvailabilityMode;
  readonly feeDataAvailabilityMode: DataAvailabilityMode;
}

export type InvokeTransaction = InvokeV1 | InvokeV3;

export interface SierraEntryPoint {
  readonly selector: Felt;
  readonly functionIdx: number;
}

/** A Sierra contract class as the Starknet JSON-RPC carries it (CONTRACT_CLASS); `abi` is the ABI's JSON text. */
export interface SierraClass {
  readonly sierraProgram: readonly Felt[];
  readonly contractClassVersion: string;
  readonly entryPoints: {
    readonly constructor: readonly SierraEntryPoint[];
    readonly external: readonly SierraEntryPoint[];
    readonly l1Handler: readonly SierraEntryPoint[];
  };
  readonly abi: string;
}

/** A declared class: its hash, the hash of its compiled (CASM) form as the declarer gave it, and the class. */
export interface DeclaredClass {
  readonly classHash: Felt;
  readonly compiledClassHash: Felt;
  readonly contractClass: SierraClass;
}

/** The v3 fee fields every v3 transaction carries. */
interface V3Fields {
  readonly version: 3;
  readonly query: boolean;
  readonly signature: readonly Felt[];
  readonly nonce: Felt;
  readonly resourceBounds: ResourceBounds;
  readonly tip: bigint;
  readonly paymasterData: readonly Felt[];
  readonly nonceDataAvailabilityMode: DataAvailabilityMode;
  readonly feeDataAvailabilityMode: DataAvailabilityMode;
}

/** DEPLOY_ACCOUNT v3: deploys an account of a declared class at the address its salt, class and calldata give; it pays its own fee. */
export interface DeployAccountV3 extends V3Fields {
  readonly kind: 'DEPLOY_ACCOUNT';
  readonly classHash: Felt;
  readonly contractAddressSalt: Felt;
  readonly constructorCalldata: readonly Felt[];
}

/** DECLARE v3: declares a Sierra class (its hash computed from the class, the compiled class hash as given). */
export interface DeclareV3 extends V3Fields {
  readonly kind: 'DECLARE';
  readonly senderAddress: Felt;
  readonly classHash: Felt;
  readonly compiledClassHash: Felt;
  readonly contractClass: SierraClass;
  readonly accountDeploymentData: readonly Felt[];
}

/**
 * L1_HANDLER: an L1 -> L2 message consumed on L2, calling `entryPointSelector` of `contractAddress`
 * with (from_address, ...payload). Its fee was paid on L1 (`paidFeeOnL1`, wei); it has no signature.
 */
export interface L1HandlerTx {
  readonly kind: 'L1_HANDLER';
  readonly version: 0;
  readonly query: false;
  readonly contractAddress: Felt;
  readonly entryPointSelector: Felt;
  /** [from_address (the L1 sender), ...payload]. */
  readonly calldata: readonly Felt[];
  /** The L1 message nonce. */
  readonly nonce: Felt;
  readonly signature: readonly Felt[];
  readonly paidFeeOnL1: bigint;
  /** The L1 transaction that sent the message (32 bytes, not a felt; starknet_getMessagesStatus looks it up). */
  readonly l1TransactionHash: bigint;
}

/** Every transaction the simulation applies. */
export type RollupTransaction = InvokeTransaction | DeployAccountV3 | DeclareV3 | L1HandlerTx;

export interface RollupEvent {
  readonly fromAddress: Felt;
  readonly keys: readonly Felt[];
  readonly data: readonly Felt[];
}

/** A message from L2 to L1. `toAddress` is the L1 (eth) address as a felt. */
export interface MessageToL1 {
  readonly fromAddress: Felt;
  readonly toAddress: Felt;
  readonly payload: readonly Felt[];
}

export interface StorageWrite {
  readonly contractAddress: Felt;
  readonly key: Felt;
  readonly value: Felt;
}

/** What a transaction did, as the simulation records it (the engine does not run Cairo). */
export interface TxOutcome {
  readonly events: readonly RollupEvent[];
  readonly messages: readonly MessageToL1[];
  readonly storageWrites: readonly StorageWrite[];
}

/** The outcome a submitter may give; missing parts are derived from the calls (see docs/rollup.md "Transactions"). */
export interface OutcomeInput {
  readonly events?: readonly RollupEvent[];
  readonly messages?: readonly MessageToL1[];
  readonly storageWrites?: readonly StorageWrite[];
}

export interface GasPrices {
  readonly wei: bigint;
  readonly fri: bigint;
}

/** A fee estimate: gas, gas price in gwei (or gfri for v3) and their product. */
export interface FeeEstimate {
  readonly gasConsumed: bigint;
  readonly gasPrice: bigint;
  readonly overallFee: bigint;
  readonly unit: 'WEI' | 'FRI';
}

/** An executed transaction with its receipt data. */
export interface ExecutedTx {
  readonly hash: Felt;
  readonly tx: RollupTransaction;
  readonly outcome: TxOutcome;
  readonly gasConsumed: bigint;
  /** Charged fee in wei (v1) or fri (v3). */
  readonly actualFee: bigint;
  /** Present when execution reverted (the fee was charged, the nonce moved, the calls changed nothing). */
  readonly revertReason?: string;
}

/** One contract (accounts are contracts with a public key). */
export interface ContractState {
  readonly classHash: Felt;
  readonly publicKey?: Felt;
  readonly nonce: bigint;
  /** Fee-token balances are storage of the token contracts (src/rollup/engine/feeToken.ts), not fields here. */
  readonly storage: ReadonlyMap<Felt, Felt>;
  /** false: no contract deployed at the address (a fee token a seed does not deploy, holding balances). */
  readonly deployed?: false;
}

/**
 * The whole rollup state; never mutated once a block holds it. An entry with `deployed: false` is an
 * address that holds fee-token balances but no contract yet (funded before a DEPLOY_ACCOUNT).
 */
export type RollupState = ReadonlyMap<Felt, ContractState>;

/** A sealed block. `status` moves forward only; the rest never changes. */
export interface SealedBlock {
  readonly number: bigint;
  readonly hash: Felt;
  readonly parentHash: Felt;
  readonly newRoot: Felt;
  readonly timestamp: bigint;
  readonly sequencerAddress: Felt;
  readonly gasPrices: GasPrices;
  readonly starknetVersion: string;
  readonly transactions: readonly ExecutedTx[];
  readonly state: RollupState;
  status: BlockStatus;
  /** devgate clock time (ms) at which the block was sealed; start time for seeded blocks. */
  readonly sealedAtMs: number;
  /** The L1 head number when the block was sealed (first observed one for seeded blocks). */
  l1Anchor?: bigint;
}

/** The block being filled. */
export interface PendingBlock {
  readonly parentHash: Felt;
  readonly timestamp: bigint;
  readonly sequencerAddress: Felt;
  readonly gasPrices: GasPrices;
  readonly starknetVersion: string;
  readonly transactions: readonly ExecutedTx[];
}

/** Which block a request means. */
export type BlockId = { readonly hash: Felt } | { readonly number: bigint } | { readonly tag: 'latest' | 'pending' };

/** When an ACCEPTED_ON_L2 block becomes ACCEPTED_ON_L1 by itself. */
export type L1AcceptanceRule =
  | { readonly kind: 'manual' }
  | { readonly kind: 'time'; readonly delayMs: number }
  | { readonly kind: 'blocks'; readonly network: string; readonly blocks: number };
