/**
 * One call of a simulated block, as geth's simulator runs it: defaults (nonce from the state, gas the block's
 * remaining gas, clamped to the request's gas budget), the transaction geth would build from it (unsigned: v, r, s
 * zero), geth's pre-checks with geth's words and codes (nonce and base fee only with `validation`), then the run.
 * An invalid call fails the whole request (SimulationError); a call that runs but fails is a result with an error.
 */
import type { Common } from '@ethereumjs/common';
import { createBlob4844Tx, createEOACode7702Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { type Address, createZeroAddress, KECCAK256_NULL, equalsBytes, toChecksumAddress } from '@ethereumjs/util';
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import { SimulationError } from '../../../errors.js';
import { decodeRevertReason } from '../exec/call.js';
import { CallTimeout } from '../evm/callClock.js';
import { ForkMiss } from '../fork/forkReads.js';
import type { SimCall, SimCallError } from './types.js';

export const ERR = {
  nonceTooHigh: -38011,
  nonceTooLow: -38010,
  baseFeeTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimit: -38015,
  maxInitCode: -38025,
  internal: -32603,
  invalidParams: -32602,
  vmError: -32015,
} as const;

/** What a call runs in: the block's header (as runTx reads it) and the request's settings. */
export interface CallEnv {
  readonly vm: VM;
  /** The Common transactions are made with (no EIP-7825 cap: geth's simulator skips the tx checks). */
  readonly txCommon: Common;
  readonly header: { baseFeePerGas?: bigint; gasLimit: bigint };
  /** runTx's block: the header, viewed with a blob base fee override. */
  readonly runBlock: unknown;
  /** The same with a zero base fee, for unpriced calls without validation (geth's NoBaseFee). */
  readonly runBlockNoBaseFee: unknown;
  readonly validate: boolean;
  readonly chainId: bigint;
  /** Gas left in the block. */
  readonly remaining: bigint;
  /** Gas left in the request's budget. */
  readonly budget: bigint;
  readonly blockGasUsed: bigint;
}

export interface CallRun {
  readonly tx: TypedTransaction;
  readonly from: Address;
  readonly result: RunTxResult;
  readonly gasCapped: boolean;
}

/** The largest nonce (a uint64 in geth). */
const MAX_NONCE = 0xffffffffffffffffn;

const fail = (code: number, message: string, gas: bigint): never => {
  throw new SimulationError(code, `err: ${message} (supplied gas ${gas})`);
};

const shown = (a: Address) => toChecksumAddress(a.toString());

/** Runs one call; throws SimulationError for what geth refuses before running. */
export async function runSimCall(env: CallEnv, call: SimCall): Promise<CallRun> {
  const state = env.vm.stateManager;
  const from = call.from ?? createZeroAddress();
  const account = await state.getAccount(from);
  const stateNonce = account?.nonce ?? 0n;
  const nonce = call.nonce ?? stateNonce;
  const requested = call.gas ?? env.remaining;
  if (env.remaining < requested) throw new SimulationError(ERR.blockGasLimit, `block gas limit reached: remaining: ${env.remaining}, required: ${requested}`);
  const gas = requested > env.budget ? env.budget : requested;
  const gasCapped = gas < requested;
  if (call.gasPrice !== undefined && (call.maxFeePerGas !== undefined || call.maxPriorityFeePerGas !== undefined)) {
    throw new SimulationError(-32000, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  if (call.chainId !== undefined && call.chainId !== env.chainId)
    throw new SimulationError(-32000, `chainId does not match node's (have=${call.chainId}, want=${env.chainId})`);
  const baseFee = env.header.baseFeePerGas;
  const value = call.value ?? 0n;
  const data = call.data ?? new Uint8Array();
  // The message's prices (geth's ToMessage).
  let gasPrice: bigint;
  let feeCap: bigint;
  let tip: bigint;
  if (baseFee === undefined || call.gasPrice !== undefined) {
    gasPrice = feeCap = tip = call.gasPrice ?? 0n;
  } else {
    feeCap = call.maxFeePerGas ?? 0n;
    tip = call.maxPriorityFeePerGas ?? 0n;
    gasPrice = feeCap === 0n && tip === 0n ? 0n : tip + baseFee < feeCap ? tip + baseFee : feeCap;
  }
  // geth's preCheck and buyGas, in its order and words.
  if (env.validate) {
    if (stateNonce < nonce) fail(ERR.nonceTooHigh, `nonce too high: address ${shown(from)}, tx: ${nonce} state: ${stateNonce}`, gas);
    if (stateNonce > nonce) fail(ERR.nonceTooLow, `nonce too low: address ${shown(from)}, tx: ${nonce} state: ${stateNonce}`, gas);
    if (stateNonce === 0xffffffffffffffffn) fail(ERR.internal, `nonce has max value: address ${shown(from)}, nonce: ${stateNonce}`, gas);
  }
  const common = env.vm.common;
  const initCodeLimit = call.to === undefined && common.isActivatedEIP(3860) ? common.param('maxInitCodeSize') : undefined;
  let tx: TypedTransaction;
  try {
    tx = makeTx(env, call, { nonce, gas, value, data, feeCap, tip, legacyPrice: call.gasPrice });
  } catch (err) {
    // @ethereumjs refuses to make some transactions geth runs into an error: answer geth's where it has one.
    if (initCodeLimit !== undefined && BigInt(data.length) > initCodeLimit)
      fail(ERR.maxInitCode, `max initcode size exceeded: code size ${data.length} limit ${initCodeLimit}`, gas);
    throw new SimulationError(ERR.internal, `err: ${err instanceof Error ? err.message : String(err)} (supplied gas ${gas})`);
  }
  const noBaseFee = !env.validate && feeCap === 0n && tip === 0n;
  if (baseFee !== undefined && !noBaseFee) {
    if (feeCap < tip)
      fail(
        ERR.invalidParams,
        `max priority fee per gas higher than max fee per gas: address ${shown(from)}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`,
        gas,
      );
    if (feeCap < baseFee)
      fail(ERR.baseFeeTooLow, `max fee per gas less than block base fee: address ${shown(from)}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`, gas);
  }
  const balance = account?.balance ?? 0n;
  // A blob call also pays for its blobs' gas at its blob fee cap (geth's buyGas).
  const blobGas = call.blobVersionedHashes === undefined ? 0n : BigInt(call.blobVersionedHashes.length) * env.vm.common.param('blobGasPerBlob');
  const want = gas * feeCap + value + blobGas * (call.maxFeePerBlobGas ?? 0n);
  if (balance < want) fail(ERR.insufficientFunds, `insufficient funds for gas * price + value: address ${shown(from)} have ${balance} want ${want}`, gas);
  const intrinsic = tx.getIntrinsicGas();
  if (gas < intrinsic) fail(ERR.intrinsicGas, `intrinsic gas too low: have ${gas}, want ${intrinsic}`, gas);
  const floor = tx.getMinimumGasLimit();
  if (gas < floor) fail(ERR.internal, `insufficient gas for floor data gas cost: have ${gas}, want ${floor}`, gas);
  if (value > 0n && balance - gas * gasPrice < value) fail(ERR.insufficientFunds, `insufficient funds for transfer: address ${shown(from)}`, gas);
  if (initCodeLimit !== undefined && BigInt(data.length) > initCodeLimit)
    fail(ERR.maxInitCode, `max initcode size exceeded: code size ${data.length} limit ${initCodeLimit}`, gas);

  // geth skips the EOA check here: a sender with code runs as if it had none (its code hash put back after).
  const codeHash = account?.codeHash;
  const hidden = codeHash !== undefined && !equalsBytes(codeHash, KECCAK256_NULL) && !(await isDelegated(env.vm, from));
  if (hidden) await state.modifyAccountFields(from, { codeHash: KECCAK256_NULL });
  let result: RunTxResult;
  try {
    result = await runTx(env.vm, {
      tx,
      block: (noBaseFee ? env.runBlockNoBaseFee : env.runBlock) as never,
      skipNonce: true,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
      blockGasUsed: env.blockGasUsed,
    });
  } catch (err) {
    if (err instanceof CallTimeout || err instanceof ForkMiss) throw err;
    throw new SimulationError(
      ERR.internal,
      `err: ${err instanceof Error ? err.message.replace(/ \((vm hf|block number)=.*$/s, '') : String(err)} (supplied gas ${gas})`,
    );
  } finally {
    if (hidden) await state.modifyAccountFields(from, { codeHash });
  }
  // geth's nonce is a uint64: without validation a sender at 2^64-1 wraps to 0 (runTx counted on to 2^64).
  if (stateNonce === MAX_NONCE) await state.modifyAccountFields(from, { nonce: 0n });
  return { tx, from, result, gasCapped };
}

async function isDelegated(vm: VM, address: Address): Promise<boolean> {
  if (!vm.common.isActivatedEIP(7702)) return false;
  const code = await vm.stateManager.getCode(address);
  return code.length === 23 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00;
}

interface TxFields {
  nonce: bigint;
  gas: bigint;
  value: bigint;
  data: Uint8Array;
  feeCap: bigint;
  tip: bigint;
  legacyPrice?: bigint;
}

/** The transaction geth's ToTransaction(DynamicFeeTxType) makes of a call: unsigned, with v, r and s zero. */
function makeTx(env: CallEnv, call: SimCall, f: TxFields): TypedTransaction {
  const opts = { common: env.txCommon, freeze: false };
  const unsigned = { v: 0n, r: 0n, s: 0n };
  // @ethereumjs makes no transaction with nonce 2^64-1 (EIP-2681); geth's simulator does without validation.
  const maxNonce = f.nonce === MAX_NONCE;
  const base = { nonce: maxNonce ? 0n : f.nonce, gasLimit: f.gas, to: call.to, value: f.value, data: f.data, ...unsigned };
  let tx: TypedTransaction;
  if (f.legacyPrice !== undefined) {
    tx = createLegacyTx({ ...base, gasPrice: f.legacyPrice }, opts);
  } else if (call.authorizationList !== undefined && call.to !== undefined) {
    tx = createEOACode7702Tx(
      {
        ...base,
        chainId: env.chainId,
        maxFeePerGas: f.feeCap,
        maxPriorityFeePerGas: f.tip,
        accessList: call.accessList ?? [],
        authorizationList: call.authorizationList,
      },
      opts,
    );
  } else if (call.blobVersionedHashes !== undefined && call.to !== undefined) {
    const fees = { chainId: env.chainId, maxFeePerGas: f.feeCap, maxPriorityFeePerGas: f.tip, maxFeePerBlobGas: call.maxFeePerBlobGas ?? 0n };
    tx = createBlob4844Tx({ ...base, ...fees, accessList: call.accessList ?? [], blobVersionedHashes: [...call.blobVersionedHashes] }, opts);
  } else {
    tx = createFeeMarket1559Tx({ ...base, chainId: env.chainId, maxFeePerGas: f.feeCap, maxPriorityFeePerGas: f.tip, accessList: call.accessList ?? [] }, opts);
  }
  if (maxNonce) (tx as { nonce: bigint }).nonce = MAX_NONCE;
  const sender = call.from ?? createZeroAddress();
  tx.getSenderAddress = () => sender;
  // The transactions root, the hash and the answer each serialize it (an unfrozen transaction keeps nothing): once.
  const serialize = tx.serialize.bind(tx);
  let raw: Uint8Array | undefined;
  tx.serialize = () => (raw ??= serialize());
  // Frozen now that it is complete: @ethereumjs then keeps its data gas and hash (each asked for several times).
  Object.freeze(tx);
  return tx;
}

/** The error of a call that ran and failed, as geth puts it in the call's result. */
export function callError(evmError: string, returnValue: Uint8Array, gasCapped: boolean): SimCallError {
  if (evmError === 'revert') {
    const reason = decodeRevertReason(returnValue);
    return { code: 3, message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, data: returnValue };
  }
  const message = evmError === 'invalid opcode' ? 'invalid opcode: INVALID' : evmError;
  return { code: ERR.vmError, message: gasCapped ? `${message} (gas limit was capped by the RPC server's global gas cap)` : message };
}
