/**
 * eth_call on the real EVM: `evm.runCall` on the state after a block with that block's header as
 * context, inside checkpoint()/revert() so it never changes state. Gas is capped at 10x the block gas
 * limit (geth's RPC gas cap); a call without gas gets the cap, and a call is aborted after 5 s (geth's
 * EVM timeout), so one looping call cannot hold the process. A REVERT becomes ExecutionReverted with
 * the reason decoded as geth does (Error(string), Panic(uint256)), and custom errors the shipped
 * contract ABIs declare; other failures become ExecutionFailed.
 */
import { Hardfork } from '@ethereumjs/common';
import { createAccessList2930Tx, createEOACode7702Tx, createLegacyTx, type AccessListBytes, type TypedTransaction } from '@ethereumjs/tx';
import { createZeroAddress, type Address, bytesToBigInt, type EOACode7702AuthorizationListBytes, toChecksumAddress } from '@ethereumjs/util';
import type { EVMResult, EVMRunCallOpts } from '@ethereumjs/evm';
import { runTx, type VM } from '@ethereumjs/vm';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeError } from 'micro-eth-signer/abi.js';
import { ExecutionFailed, ExecutionReverted } from '../../../errors.js';
import { SHIPPED_CONTRACTS } from '../build/abi.js';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';
import { CallTimeout, startClock } from '../evm/callClock.js';
import { withCallConsole } from '../evm/consoleLog.js';
import { feeMarketTx } from '../evm/feeMarketTx.js';
import { forkRuns, prefetchCall } from '../fork/prefetch.js';
import { useOverrideHashes } from './overrideHashes.js';
import { applyStateOverride, overrideBlock, type CallOverrides } from './overrides.js';
import { bytesHex, plainHex } from '../../../hex.js';

/** A call object (eth_call, eth_estimateGas, eth_createAccessList), decoded. */
export interface CallRequest {
  readonly from?: Address;
  readonly to?: Address;
  readonly gas?: bigint;
  readonly gasPrice?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
  readonly value?: bigint;
  readonly data?: Uint8Array;
  readonly nonce?: bigint;
  readonly accessList?: AccessListBytes;
  /** EIP-7702: a set-code transaction's authorizations (estimates and access lists count their cost). */
  readonly authorizationList?: EOACode7702AuthorizationListBytes;
}

/** The RPC gas cap: 10x the gas limit of the block the call runs on (SPEC 8). */
export function gasCap(block: MinedBlock): bigint {
  return block.header.gasLimit * 10n;
}

/** The gas a call runs with: the requested gas, capped; the cap when none is given. */
export function cappedGas(block: MinedBlock, requested: bigint | undefined): bigint {
  const cap = gasCap(block);
  return requested === undefined || requested > cap ? cap : requested;
}

/** Whether a call names a price (gasPrice, maxFeePerGas or maxPriorityFeePerGas). */
export const isPriced = (req: CallRequest) => req.gasPrice !== undefined || req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined;

/**
 * The block a call runs in: its own header, or, for a call that names no price, that header with a zero base fee
 * (geth's NoBaseFee: BASEFEE reads 0 and the fee checks are skipped). Only the header is read.
 */
export function callContext(block: MinedBlock, req: CallRequest): { header: MinedBlock['header'] } {
  const header = block.header;
  if (isPriced(req) || header.baseFeePerGas === undefined) return { header };
  let context = noBaseFee.get(header);
  if (context === undefined) {
    context = { header: Object.create(header, { baseFeePerGas: { value: 0n, enumerable: true } }) as MinedBlock['header'] };
    noBaseFee.set(header, context);
  }
  return context;
}

/** The NoBaseFee context of each header, made once (headers never change; ~1% of an eth_call). The EVM only reads it. */
const noBaseFee = new WeakMap<object, { header: MinedBlock['header'] }>();

/** The price per gas a call pays: gasPrice, or min(maxFee, baseFee + tip); 0 when no price is given. */
export function callGasPrice(req: CallRequest, baseFee: bigint | undefined): bigint {
  if (req.gasPrice !== undefined) return req.gasPrice;
  if (req.maxFeePerGas === undefined && req.maxPriorityFeePerGas === undefined) return 0n;
  const maxFee = req.maxFeePerGas ?? (baseFee ?? 0n) * 2n + (req.maxPriorityFeePerGas ?? 0n);
  const tip = req.maxPriorityFeePerGas ?? 0n;
  if (baseFee === undefined) return maxFee;
  return baseFee + tip < maxFee ? baseFee + tip : maxFee;
}

/** geth's RPC EVM timeout (`--rpc.evmtimeout`, default 5 s): a longer eth_call is aborted. */
export const CALL_TIMEOUT_MS = 5_000;

/** Runs a call at the state after `block` and returns its output. Never changes state. */
export async function callAt(
  chain: EthChain,
  block: MinedBlock,
  req: CallRequest,
  timeoutMs = CALL_TIMEOUT_MS,
  overrides?: CallOverrides,
): Promise<Uint8Array> {
  if (req.authorizationList !== undefined) return setCodeCallAt(chain, block, req, overrides);
  return chain.withCallVmAt(block, (vm) => withCallConsole(chain, vm, () => runCall(vm, block, req, timeoutMs, overrides)));
}

/**
 * eth_call of a set-code (type 4) call, as geth runs it: the authorizations are applied (invalid ones skipped) and
 * paid for, so the call runs as a transaction (runCallTx) on a throwaway state. geth's errors for a creation and an
 * empty list.
 */
async function setCodeCallAt(chain: EthChain, block: MinedBlock, req: CallRequest, overrides?: CallOverrides): Promise<Uint8Array> {
  if (req.to === undefined) throw new ExecutionFailed('EIP-7702 transaction cannot be used to create contract');
  if (req.authorizationList!.length === 0) throw new ExecutionFailed('EIP-7702 transaction with empty auth list');
  return withTxVmAt(chain, block, (vm) => withCallConsole(chain, vm, () => setCodeCall(vm, block, req, overrides)));
}

/** A set-code call on `vm` (a call VM of its own at `block`'s post-state). */
async function setCodeCall(vm: VM, block: MinedBlock, req: CallRequest, overrides?: CallOverrides): Promise<Uint8Array> {
  if (!vm.common.isActivatedEIP(7702)) throw new ExecutionFailed('set-code calls (authorizationList) need the prague hardfork (EIP-7702)');
  // As a transaction it may not carry more than EIP-7825's cap (from Osaka): the gas is clamped to it.
  let gas = cappedGas(block, req.gas);
  if (vm.common.isActivatedEIP(7825) && gas > vm.common.param('maxTransactionGasLimit')) gas = vm.common.param('maxTransactionGasLimit');
  let run: TxRun;
  try {
    run = await runCallTx(vm, block, req, gas, { overrides });
  } catch (err) {
    throw new ExecutionFailed(err instanceof Error ? err.message.replace(/ \((vm hf|block number)=.*$/s, '').replace(/ -> .*$/s, '') : String(err));
  }
  if (run.evmError !== undefined) throw executionError(run.evmError, run.returnValue);
  return run.returnValue;
}

/**
 * Runs a call on `vm` (whose state is `block`'s post-state, a VM of its own), reverting every change
 * afterwards (state overrides included: they are written after the checkpoint). Aborted after `timeoutMs`,
 * as geth aborts a call at its EVM timeout. A block override changes the header the EVM sees, not the gas cap.
 */
export async function runCall(vm: VM, mined: MinedBlock, req: CallRequest, timeoutMs = CALL_TIMEOUT_MS, overrides?: CallOverrides): Promise<Uint8Array> {
  // On a fork: the caller, the callee and its code in one batch request, then what the call reads beyond them in one
  // batch per recording run (fork/prefetch.ts), rather than one request each as the EVM meets them.
  await prefetchCall(vm.stateManager, req.from ?? ZERO_CALLER, req.to, req.data);
  return forkRuns(vm.stateManager, () => runCallOnce(vm, mined, req, timeoutMs, overrides));
}

async function runCallOnce(vm: VM, mined: MinedBlock, req: CallRequest, timeoutMs: number, overrides?: CallOverrides): Promise<Uint8Array> {
  const gasLimit = cappedGas(mined, req.gas);
  const block = overrideBlock(mined, overrides?.block);
  const caller = req.from ?? ZERO_CALLER;
  const gasPrice = callGasPrice(req, block.header.baseFeePerGas);
  const value = req.value ?? 0n;
  const clock = startClock(vm, timeoutMs);
  freshJournal(vm);
  await vm.stateManager.checkpoint();
  let restore = NOTHING;
  // geth's eth_call reads BLOCKHASH from the real header (zero at or past it) whatever number the override says.
  const restoreHashes = useOverrideHashes(vm, mined, overrides?.block, false);
  try {
    if (overrides?.state !== undefined) restore = await applyStateOverride(vm, overrides.state);
    if (gasPrice > 0n || value > 0n) await checkFunds(vm, caller, gasLimit * gasPrice + value);
    const result = await vm.evm.runCall({
      // The EVM reads only the header: a restored block need not decode its transactions.
      block: callContext(block, req),
      caller,
      origin: caller,
      to: req.to,
      data: req.data ?? EMPTY,
      value,
      gasLimit,
      gasPrice,
    });
    const err = result.execResult.exceptionError;
    if (err !== undefined) throw executionError(err.error, result.execResult.returnValue);
    return result.execResult.returnValue;
  } catch (err) {
    if (err instanceof CallTimeout) throw new ExecutionFailed(`execution aborted (timeout = ${formatSeconds(timeoutMs)})`);
    throw err;
  } finally {
    clock.remaining = Infinity;
    restore();
    restoreHashes();
    await vm.stateManager.revert();
  }
}

/** Shared by every call: the sender without `from` (addresses are never changed in place), no data, no restore. */
const [ZERO_CALLER, EMPTY, NOTHING] = [createZeroAddress(), new Uint8Array(0), () => {}];

/**
 * Forgets what an earlier call on this (reused) VM warmed (EIP-2929 addresses and slots, touched
 * accounts): evm.runCall, unlike runTx, does not reset the journal, and warm accesses cost less gas.
 */
export function freshJournal(vm: VM): void {
  const journal = vm.evm.journal as unknown as { cleanJournal(): void; accessList?: unknown; preimages?: unknown };
  journal.cleanJournal();
  // Only runTx's reportAccessList/reportPreimages set these; `delete` would make the journal a slow dictionary object.
  if (journal.accessList !== undefined) journal.accessList = undefined;
  if (journal.preimages !== undefined) journal.preimages = undefined;
}

const formatSeconds = (ms: number) => `${ms / 1000}s`;

async function checkFunds(vm: VM, caller: Address, want: bigint): Promise<void> {
  const have = (await vm.stateManager.getAccount(caller))?.balance ?? 0n;
  if (have < want)
    throw new ExecutionFailed(`insufficient funds for gas * price + value: address ${toChecksumAddress(caller.toString())} have ${have} want ${want}`);
}

/** The domain error of a failed execution: ExecutionReverted for REVERT, ExecutionFailed otherwise. */
export function executionError(evmError: string, returnValue: Uint8Array): Error {
  if (evmError === 'revert') return new ExecutionReverted(returnValue, decodeRevertReason(returnValue));
  return new ExecutionFailed(evmError === 'invalid opcode' ? 'invalid opcode: INVALID' : evmError);
}

const [ERROR_SELECTOR, PANIC_SELECTOR] = ['08c379a0', '4e487b71']; // Error(string), Panic(uint256)

/** Solidity's panic codes, worded as geth words them. */
const PANIC_REASONS: Record<string, string> = {
  '0': 'generic panic',
  '1': 'assert(false)',
  '17': 'arithmetic underflow or overflow',
  '18': 'division or modulo by zero',
  '33': 'enum overflow',
  '34': 'invalid encoded storage byte array accessed',
  '49': 'out-of-bounds array access; popping on an empty array',
  '50': 'out-of-bounds access of an array or bytesN',
  '65': 'out of memory',
  '81': 'uninitialized function',
};

/**
 * The reason of a revert payload: the message of Error(string) and the meaning of Panic(uint256) as
 * geth's abi.UnpackRevert gives them; a custom error whose selector an ABI of chains/contracts declares,
 * as `Name(arg, ...)` (geth cannot know it and says no more than `execution reverted`); undefined for
 * anything else (unknown custom errors, empty or malformed payloads).
 */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = plainHex(data.subarray(0, 4));
  const body = data.subarray(4);
  if (selector === ERROR_SELECTOR) return decodeAbiString(body);
  if (selector === PANIC_SELECTOR) {
    if (body.length < 32) return undefined;
    const code = bytesToBigInt(body.subarray(0, 32));
    return PANIC_REASONS[code.toString()] ?? `unknown panic code: 0x${code.toString(16)}`;
  }
  return decodeCustomError(data);
}

interface ErrorAbiItem {
  readonly type: 'error';
  readonly name: string;
  readonly inputs: readonly { readonly name?: string; readonly type: string }[];
}

let knownErrors: ErrorAbiItem[] | undefined;

/** The `error` entries of every artifact in chains/contracts, read once. */
function shippedErrors(): ErrorAbiItem[] {
  if (knownErrors !== undefined) return knownErrors;
  knownErrors = [];
  for (const file of readdirSync(SHIPPED_CONTRACTS).filter((f) => f.endsWith('.json'))) {
    try {
      const abi = (JSON.parse(readFileSync(join(SHIPPED_CONTRACTS, file), 'utf8')) as { abi?: unknown }).abi;
      if (Array.isArray(abi)) knownErrors.push(...(abi as ErrorAbiItem[]).filter((item) => item?.type === 'error'));
    } catch {
      // Not an artifact: skip it.
    }
  }
  return knownErrors;
}

function decodeCustomError(data: Uint8Array): string | undefined {
  let decoded;
  try {
    decoded = decodeError(data, shippedErrors() as never);
  } catch {
    return undefined;
  }
  if (decoded === undefined) return undefined;
  const item = shippedErrors().find((e) => decoded.signature === `${e.name}(${e.inputs.map((i) => i.type).join(',')})`);
  const inputs = item?.inputs ?? [];
  const args: unknown[] =
    inputs.length === 0
      ? []
      : inputs.length === 1
        ? [decoded.args]
        : Array.isArray(decoded.args)
          ? decoded.args
          : inputs.map((i) => (decoded.args as Record<string, unknown>)[i.name ?? '']);
  return `${decoded.name}(${args.map(showArg).join(', ')})`;
}

/** An ABI value as text: integers in decimal, bytes as hex, arrays in brackets. */
function showArg(v: unknown): string {
  if (v instanceof Uint8Array) return bytesHex(v);
  if (Array.isArray(v)) return `[${v.map(showArg).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `(${Object.values(v).map(showArg).join(', ')})`;
  return String(v);
}

/** Decodes an ABI-encoded `string` (offset, length, bytes); undefined when malformed. */
function decodeAbiString(body: Uint8Array): string | undefined {
  if (body.length < 64) return undefined;
  const offset = bytesToBigInt(body.subarray(0, 32));
  if (offset + 32n > BigInt(body.length)) return undefined;
  const start = Number(offset);
  const length = bytesToBigInt(body.subarray(start, start + 32));
  if (BigInt(start) + 32n + length > BigInt(body.length)) return undefined;
  const bytes = body.subarray(start + 32, start + 32 + Number(length));
  return new TextDecoder().decode(bytes);
}

/**
 * The call as an unsigned transaction whose sender is `from` (or the zero address), for the runs that
 * need full transaction semantics (intrinsic gas, refunds, access lists): eth_estimateGas and
 * eth_createAccessList. `priced` tells whether the caller gave a price; without one, the tx pays the
 * base fee and runs with skipBalance, as geth skips the fee check for unpriced calls.
 */
export function buildCallTx(
  vm: VM,
  block: MinedBlock,
  req: CallRequest,
  gasLimit: bigint,
  accessList?: AccessListBytes,
): { tx: TypedTransaction; priced: boolean } {
  const common = vm.common;
  const priced = isPriced(req);
  // An unpriced call runs at a zero base fee (callContext): its fee cap may be 0.
  const baseFee = priced ? block.header.baseFeePerGas : block.header.baseFeePerGas === undefined ? undefined : 0n;
  const list = accessList ?? req.accessList;
  const base = { nonce: req.nonce ?? 0n, gasLimit, to: req.to, value: req.value ?? 0n, data: req.data ?? new Uint8Array() };
  const opts = { common, freeze: false };
  let tx: TypedTransaction;
  if (common.isActivatedEIP(1559) && req.gasPrice === undefined) {
    const tip = req.maxPriorityFeePerGas ?? 0n;
    const maxFee = req.maxFeePerGas ?? (priced ? (baseFee ?? 0n) * 2n + tip : (baseFee ?? 0n));
    const fees = { ...base, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, accessList: list ?? [] };
    // A set-code transaction: its authorizations are processed and paid for, as geth estimates them.
    if (req.authorizationList !== undefined && req.to !== undefined && common.isActivatedEIP(7702))
      tx = createEOACode7702Tx({ ...fees, authorizationList: req.authorizationList }, opts);
    else tx = feeMarketTx(fees, opts);
  } else if (list !== undefined && common.isActivatedEIP(2930)) {
    tx = createAccessList2930Tx({ ...base, gasPrice: req.gasPrice ?? baseFee ?? 0n, accessList: list }, opts);
  } else {
    tx = createLegacyTx({ ...base, gasPrice: req.gasPrice ?? baseFee ?? 0n }, opts);
  }
  const sender = req.from ?? createZeroAddress();
  tx.getSenderAddress = () => sender;
  return { tx, priced };
}

/** Result of one run of a call as a transaction. */
export interface TxRun {
  readonly failed: boolean;
  readonly gasUsed: bigint;
  readonly gasRefund: bigint;
  readonly evmError?: string;
  readonly returnValue: Uint8Array;
  readonly accessList?: { address: string; storageKeys: string[] }[];
}

/**
 * Runs `fn` with a VM for runs of a call as a transaction at `block`'s post-state: a call VM (callVms.ts),
 * or before Byzantium, whose legacy receipts carry the post-state root that a call state does not
 * compute, a VM on a state copy. `fn` must undo its writes (runCallTx does).
 */
export function withTxVmAt<T>(chain: EthChain, block: MinedBlock, fn: (vm: VM) => Promise<T>): Promise<T> {
  return chain.withCallVmAt(block, (vm) => (vm.common.gteHardfork(Hardfork.Byzantium) ? fn(vm) : chain.withVmAt(block, fn)));
}

type CallTxOptions = { accessList?: AccessListBytes; reportAccessList?: boolean; overrides?: CallOverrides; precompileOverrides?: boolean };

/** Runs the call as a transaction with `gasLimit` on `vm`, reverting every change afterwards. */
export async function runCallTx(vm: VM, mined: MinedBlock, req: CallRequest, gasLimit: bigint, opts: CallTxOptions = {}): Promise<TxRun> {
  // On a fork (eth_estimateGas, eth_createAccessList, set-code calls): fetched as for eth_call (runCall).
  await prefetchCall(vm.stateManager, req.from ?? ZERO_CALLER, req.to, req.data);
  return forkRuns(vm.stateManager, () => runCallTxOnce(vm, mined, req, gasLimit, opts));
}

async function runCallTxOnce(vm: VM, mined: MinedBlock, req: CallRequest, gasLimit: bigint, opts: CallTxOptions): Promise<TxRun> {
  const block = overrideBlock(mined, opts.overrides?.block);
  const { tx, priced } = buildCallTx(vm, block, req, gasLimit, opts.accessList);
  // A call VM may come from an eth_call (runCall leaves its journal): runTx expects a clean one.
  freshJournal(vm);
  // No deadline (as before), but a run yields to the event loop every few ms (evm/callClock.ts).
  startClock(vm, Infinity);
  await vm.stateManager.checkpoint();
  let restore = () => {};
  const restoreHashes = useOverrideHashes(vm, mined, opts.overrides?.block, false);
  const logs = logsLeftOut(vm);
  try {
    restore = await applyStateOverride(vm, opts.overrides?.state, { precompiles: opts.precompileOverrides });
    logs.on = true;
    const res = await runTx(vm, {
      tx,
      block: (isPriced(req) ? block.block : callContext(block, req)) as never,
      skipNonce: true,
      skipBalance: !priced,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
      reportAccessList: opts.reportAccessList,
    });
    const err = res.execResult.exceptionError;
    return {
      failed: err !== undefined,
      gasUsed: res.totalGasSpent,
      gasRefund: res.gasRefund,
      evmError: err?.error,
      returnValue: res.execResult.returnValue,
      accessList: res.accessList?.map((e) => ({ address: e.address.toLowerCase(), storageKeys: e.storageKeys.map((k) => k.toLowerCase()) })),
    };
  } finally {
    logs.on = false;
    restore();
    restoreHashes();
    await vm.stateManager.revert();
  }
}

/**
 * A switch that makes `vm`'s top-level `evm.runCall` answer no logs while it is on: a run of a call as a transaction
 * answers gas, outcome and return data, never logs, and runTx would hash every log's address and topics into a bloom
 * (~4% of an ERC-20 transfer's estimate). Not under EIP-7708, whose finalization logs runTx adds to the same list.
 * The wrapper is installed once per EVM (an own property set once keeps the object's shape).
 */
function logsLeftOut(vm: VM): { on: boolean } {
  let flag = logSwitches.get(vm.evm);
  if (flag !== undefined) return flag;
  const evm = vm.evm as unknown as { runCall(opts: EVMRunCallOpts): Promise<EVMResult> };
  const stock = evm.runCall;
  const own: { on: boolean } = (flag = { on: false });
  const keep = vm.common.isActivatedEIP(7708);
  evm.runCall = async function runCall(this: unknown, opts: EVMRunCallOpts): Promise<EVMResult> {
    const result = await stock.call(this, opts);
    if (own.on && !keep) result.execResult.logs = [];
    return result;
  };
  logSwitches.set(vm.evm, flag);
  return flag;
}

const logSwitches = new WeakMap<object, { on: boolean }>();
