/**
 * Engine objects -> wire objects of the `starknet_` family, shaped as the Starknet JSON-RPC spec 0.8
 * gives them (BLOCK_HEADER, INVOKE_TXN, INVOKE_TXN_RECEIPT). The `rollup_` family keeps SPEC's own
 * shapes in ../format.ts.
 */
import type { RollupConfig } from '../engine/chain.js';
import { isV09, type RollupContext } from '../context.js';
import { feeUnit } from '../engine/fees.js';
import { deployedAddress, l1ToL2MessageHash } from '../engine/hash.js';
import type { StateDiff } from '../engine/stateDiff.js';
import type { DeclareV3, DeployAccountV3, ExecutedTx, GasPrices, InvokeV3, PendingBlock, ResourceBound, SealedBlock, SierraClass } from '../engine/types.js';
import { feltHex } from '../format.js';

const price = (p: GasPrices) => ({ price_in_fri: feltHex(p.fri), price_in_wei: feltHex(p.wei) });

/** The number the block being filled will get: one past the head. */
export const pendingNumber = (ctx: RollupContext): number => Number(ctx.chain.head().number) + 1;

/**
 * The header fields of a block. A pending block (0.8) has no hash, number, root or status; a
 * pre-confirmed one (0.9) has its number but no hash, parent hash, root or status.
 */
export function formatHeader(b: SealedBlock | PendingBlock, ctx: RollupContext): Record<string, unknown> {
  const config = ctx.chain.config;
  const common = {
    parent_hash: feltHex(b.parentHash),
    timestamp: Number(b.timestamp),
    sequencer_address: feltHex(b.sequencerAddress),
    l1_gas_price: price(b.gasPrices),
    l2_gas_price: price(config.l2GasPrices),
    l1_data_gas_price: price(config.dataGasPrices),
    l1_da_mode: config.l1DaMode,
    starknet_version: b.starknetVersion,
  };
  if (!('hash' in b)) {
    if (!isV09(ctx)) return common;
    const { parent_hash: _, ...rest } = common;
    return { block_number: pendingNumber(ctx), ...rest };
  }
  return { status: b.status, block_hash: feltHex(b.hash), block_number: Number(b.number), new_root: feltHex(b.newRoot), ...common };
}

const bound = (b: ResourceBound | undefined) => ({ max_amount: feltHex(b?.maxAmount ?? 0n), max_price_per_unit: feltHex(b?.maxPricePerUnit ?? 0n) });

/** The v3 fee fields of a transaction: bounds (with l1_data_gas), tip, paymaster data, DA modes. */
function v3Fields(t: InvokeV3 | DeployAccountV3 | DeclareV3): Record<string, unknown> {
  const rb = t.resourceBounds;
  return {
    resource_bounds: { l1_gas: bound(rb.l1Gas), l1_data_gas: bound(rb.l1DataGas), l2_gas: bound(rb.l2Gas) },
    tip: feltHex(t.tip),
    paymaster_data: t.paymasterData.map(feltHex),
    nonce_data_availability_mode: t.nonceDataAvailabilityMode,
    fee_data_availability_mode: t.feeDataAvailabilityMode,
  };
}

/** A transaction (INVOKE v1/v3, DEPLOY_ACCOUNT v3, DECLARE v3) with its hash, as TXN_WITH_HASH. */
export function formatTransaction(e: ExecutedTx): Record<string, unknown> {
  const t = e.tx;
  const version = feltHex(BigInt(t.version) + (t.query ? 1n << 128n : 0n));
  const head = { transaction_hash: feltHex(e.hash), type: t.kind ?? 'INVOKE', version, signature: t.signature.map(feltHex), nonce: feltHex(t.nonce) };
  if (t.kind === 'DEPLOY_ACCOUNT') {
    return {
      ...head,
      class_hash: feltHex(t.classHash),
      contract_address_salt: feltHex(t.contractAddressSalt),
      constructor_calldata: t.constructorCalldata.map(feltHex),
      ...v3Fields(t),
    };
  }
  if (t.kind === 'DECLARE') {
    return {
      ...head,
      sender_address: feltHex(t.senderAddress),
      class_hash: feltHex(t.classHash),
      compiled_class_hash: feltHex(t.compiledClassHash),
      ...v3Fields(t),
      account_deployment_data: t.accountDeploymentData.map(feltHex),
    };
  }
  if (t.kind === 'L1_HANDLER') {
    return {
      ...head,
      version: '0x0',
      contract_address: feltHex(t.contractAddress),
      entry_point_selector: feltHex(t.entryPointSelector),
      calldata: t.calldata.map(feltHex),
      signature: undefined,
    };
  }
  const common = { ...head, sender_address: feltHex(t.senderAddress), calldata: t.calldata.map(feltHex) };
  if (t.version === 1) return { ...common, max_fee: feltHex(t.maxFee) };
  return { ...common, ...v3Fields(t), account_deployment_data: t.accountDeploymentData.map(feltHex) };
}

/** A contract class as CONTRACT_CLASS (Sierra): program, entry points by type, version, ABI text. */
export function formatClass(c: SierraClass): Record<string, unknown> {
  const eps = (list: readonly { selector: bigint; functionIdx: number }[]) => list.map((e) => ({ selector: feltHex(e.selector), function_idx: e.functionIdx }));
  return {
    sierra_program: c.sierraProgram.map(feltHex),
    contract_class_version: c.contractClassVersion,
    entry_points_by_type: { CONSTRUCTOR: eps(c.entryPoints.constructor), EXTERNAL: eps(c.entryPoints.external), L1_HANDLER: eps(c.entryPoints.l1Handler) },
    abi: c.abi,
  };
}

/**
 * A receipt without block info. The simulation charges all gas at the L1 gas price (wei for v1, fri
 * for v3), so execution_resources reports it as l1_gas. A transaction whose call failed (a fee-token
 * call's OZ assertion) is REVERTED with its revert_reason; what Starknet refuses is refused at submission.
 */
export function formatReceiptBody(e: ExecutedTx, finality: Finality): Record<string, unknown> {
  const t = e.tx;
  return {
    type: t.kind ?? 'INVOKE',
    ...(t.kind === 'DEPLOY_ACCOUNT' ? { contract_address: feltHex(deployedAddress(t)) } : {}),
    ...(t.kind === 'L1_HANDLER' ? { message_hash: '0x' + l1ToL2MessageHash(t).toString(16).padStart(64, '0') } : {}),
    transaction_hash: feltHex(e.hash),
    actual_fee: { amount: feltHex(e.actualFee), unit: feeUnit(e.tx) },
    ...executionStatus(e),
    finality_status: finality,
    messages_sent: e.outcome.messages.map((m) => ({ from_address: feltHex(m.fromAddress), to_address: feltHex(m.toAddress), payload: m.payload.map(feltHex) })),
    events: e.outcome.events.map((ev) => ({ from_address: feltHex(ev.fromAddress), keys: ev.keys.map(feltHex), data: ev.data.map(feltHex) })),
    execution_resources: { l1_gas: Number(e.gasConsumed), l1_data_gas: 0, l2_gas: 0 },
  };
}

/** execution_status, with revert_reason when REVERTED (receipts; transaction statuses call it failure_reason). */
export function executionStatus(e: ExecutedTx): { execution_status: 'SUCCEEDED' } | { execution_status: 'REVERTED'; revert_reason: string } {
  return e.revertReason === undefined ? { execution_status: 'SUCCEEDED' } : { execution_status: 'REVERTED', revert_reason: e.revertReason };
}

/** Finality statuses of receipts: spec 0.9 calls a pending transaction's PRE_CONFIRMED. */
export type Finality = 'PRE_CONFIRMED' | 'ACCEPTED_ON_L2' | 'ACCEPTED_ON_L1';

/** The finality of a pending transaction: ACCEPTED_ON_L2 in 0.8 (executed by the sequencer), PRE_CONFIRMED in 0.9. */
export const pendingFinality = (ctx: RollupContext): Finality => (isV09(ctx) ? 'PRE_CONFIRMED' : 'ACCEPTED_ON_L2');

/** The finality status of a transaction in a sealed, non-rejected block. */
export function finalityOf(b: SealedBlock): 'ACCEPTED_ON_L2' | 'ACCEPTED_ON_L1' {
  return b.status === 'ACCEPTED_ON_L1' ? 'ACCEPTED_ON_L1' : 'ACCEPTED_ON_L2';
}

/** A receipt with its block's hash and number (a pending transaction's has neither in 0.8, the number in 0.9). */
export function formatReceipt(e: ExecutedTx, block: SealedBlock | undefined, ctx: RollupContext): Record<string, unknown> {
  if (block === undefined) {
    const body = formatReceiptBody(e, pendingFinality(ctx));
    return isV09(ctx) ? { ...body, block_number: pendingNumber(ctx) } : body;
  }
  return { ...formatReceiptBody(e, finalityOf(block)), block_hash: feltHex(block.hash), block_number: Number(block.number) };
}

/** A spec 0.8 FEE_ESTIMATE: all gas as L1 gas at the block's price in the transaction's unit. */
export function formatFeeEstimate(gas: bigint, unit: 'WEI' | 'FRI', l1: GasPrices, config: RollupConfig): Record<string, string> {
  const pick = (p: GasPrices) => (unit === 'WEI' ? p.wei : p.fri);
  return {
    l1_gas_consumed: feltHex(gas),
    l1_gas_price: feltHex(pick(l1)),
    l2_gas_consumed: '0x0',
    l2_gas_price: feltHex(pick(config.l2GasPrices)),
    l1_data_gas_consumed: '0x0',
    l1_data_gas_price: feltHex(pick(config.dataGasPrices)),
    overall_fee: feltHex(gas * pick(l1)),
    unit,
  };
}

/** A STATE_DIFF (no Cairo 0 classes: deprecated_declared_classes is always empty). */
export function formatStateDiff(d: StateDiff): Record<string, unknown> {
  return {
    storage_diffs: d.storageDiffs.map((s) => ({
      address: feltHex(s.address),
      storage_entries: s.entries.map((e) => ({ key: feltHex(e.key), value: feltHex(e.value) })),
    })),
    deprecated_declared_classes: [],
    declared_classes: d.declaredClasses.map((c) => ({ class_hash: feltHex(c.classHash), compiled_class_hash: feltHex(c.compiledClassHash) })),
    deployed_contracts: d.deployedContracts.map((c) => ({ address: feltHex(c.address), class_hash: feltHex(c.classHash) })),
    replaced_classes: d.replacedClasses.map((c) => ({ contract_address: feltHex(c.address), class_hash: feltHex(c.classHash) })),
    nonces: d.nonces.map((n) => ({ contract_address: feltHex(n.address), nonce: feltHex(n.nonce) })),
  };
}
