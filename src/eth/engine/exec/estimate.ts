/**
 * eth_estimateGas as geth's gasestimator does it: the highest allowance is the given gas (or the block
 * gas limit), lowered to what the sender can pay and to the RPC gas cap (and EIP-7825's per-tx cap from
 * Osaka); a plain transfer to an account without code tries 21000 first; then one run at the highest
 * allowance (a revert answers as eth_call's), an optimistic guess, and a binary search that stops within
 * 1.5% of the answer. Every run is a full transaction run on a checkpoint that is reverted.
 */
import { ConsensusType, Hardfork } from '@ethereumjs/common';
import { createZeroAddress, equalsBytes, KECCAK256_NULL, MAX_INTEGER, toChecksumAddress } from '@ethereumjs/util';
import type { EVM } from '@ethereumjs/evm';
import type { VM } from '@ethereumjs/vm';
import { ExecutionFailed } from '../../../errors.js';
import { callGasPrice, executionError, gasCap, isPriced, runCallTx, withTxVmAt, type CallRequest, type TxRun } from './call.js';
import type { EthChain } from '../chain/chain.js';
import { CONSOLE_ADDRESS, withCallConsole } from '../evm/consoleLog.js';
import { READS_GAS, READS_GAS_OR_BALANCE, unwatchGas, watchGas, type GasWatch } from '../evm/gasWatch.js';
import type { MinedBlock } from '../chain/types.js';
import { overrideBlock, withStateOverride, type CallOverrides } from './overrides.js';

const TX_GAS = 21_000n;
const CALL_STIPEND = 2_300n;
const ERROR_RATIO = 0.015;

/** The gas a call needs to succeed at the state after `block`. */
export async function estimateGasAt(chain: EthChain, block: MinedBlock, req: CallRequest, overrides?: CallOverrides): Promise<bigint> {
  return withTxVmAt(chain, block, (vm) =>
    withCallConsole(chain, vm, () => withStateOverride(vm, overrides?.state, () => estimateGas(vm, block, req, overrides))),
  );
}

/**
 * The estimate on `vm`, whose state already carries the state overrides (estimateGasAt writes them). `predict`
 * (default on): when the run at the highest allowance shows its path cannot depend on its gas (evm/gasWatch.ts), the
 * search's later runs are answered from that run's least gas left instead of running again: the same answers,
 * one EVM run instead of four to six for a call such as an ERC-20 transfer; and a plain transfer that surely succeeds
 * with 21,000 gas (transferSucceeds) is not run at all.
 */
export async function estimateGas(vm: VM, mined: MinedBlock, req: CallRequest, overrides?: CallOverrides, predict = true): Promise<bigint> {
  // The gas cap stays the real block's (as geth's RPC gas cap); the runs see the overridden header.
  const block = overrideBlock(mined, overrides?.block);
  let hi = await highestAllowance(vm, block, req, gasCap(mined));
  const run = async (gas: bigint): Promise<TxRun> => {
    try {
      return await runCallTx(vm, mined, req, gas, { overrides: { block: overrides?.block } });
    } catch (err) {
      // Below the intrinsic gas (or the calldata floor) the tx is invalid: a failure for the search,
      // as geth counts ErrIntrinsicGas; any other invalidity is the answer.
      if (gas < hi || INTRINSIC.test(cleanMessage(err))) return { failed: true, gasUsed: gas, gasRefund: 0n, returnValue: new Uint8Array() };
      throw new ExecutionFailed(cleanMessage(err));
    }
  };

  if ((req.data === undefined || req.data.length === 0) && req.to !== undefined && TX_GAS <= hi) {
    const code = await vm.stateManager.getCode(req.to);
    if (code.length === 0) {
      if (predict && (await transferSucceeds(vm, req))) return TX_GAS;
      const transfer = await run(TX_GAS);
      if (!transfer.failed) return TX_GAS;
    }
  }

  const watch = predict ? startWatch(vm, req) : undefined;
  let first: TxRun;
  try {
    first = await run(hi);
  } finally {
    if (watch !== undefined) unwatchGas(vm.evm);
  }
  // Gas `gas` <= hi leaves every step of the same path `hi - gas` less: it fails exactly when that is more than the slack.
  const slack = watch !== undefined && !watch.gasDependent && watch.frames === 1 ? watch.least : undefined;
  if (first.failed) {
    if (first.evmError !== undefined && first.evmError !== 'out of gas') throw executionError(first.evmError, first.returnValue);
    throw new ExecutionFailed(`gas required exceeds allowance (${hi})`);
  }
  let lo = first.gasUsed - 1n;
  const optimistic = ((first.gasUsed + first.gasRefund + CALL_STIPEND) * 64n) / 63n;
  // The highest allowance the slack is counted from (hi moves below).
  const top = hi;
  const failsAt = async (gas: bigint): Promise<boolean> => (slack !== undefined ? top - gas > slack : (await run(gas)).failed);
  if (optimistic < hi) {
    if (await failsAt(optimistic)) lo = optimistic;
    else hi = optimistic;
  }
  while (lo + 1n < hi) {
    if (Number(hi - lo) / Number(hi) < ERROR_RATIO) break;
    let mid = (hi + lo) / 2n;
    if (mid > lo * 2n) mid = lo * 2n;
    if (await failsAt(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * A gas watch for the run at the highest allowance, or undefined where a later run's outcome cannot be read off it: a
 * creation (its code deposit is charged after the frame), a set-code call, and the gas schedules whose checks
 * gasWatch.ts does not follow (EIP-7928, 8037, 8038).
 */
function startWatch(vm: VM, req: CallRequest): GasWatch | undefined {
  const common = vm.common;
  if (req.to === undefined || req.authorizationList !== undefined) return undefined;
  if (common.isActivatedEIP(7928) || common.isActivatedEIP(8037) || common.isActivatedEIP(8038)) return undefined;
  const sentry = common.gteHardfork(Hardfork.Istanbul) ? common.param('sstoreSentryEIP2200Gas') : undefined;
  // A priced run's sender pays for the gas limit first: its balance, as BALANCE reads it, depends on the gas.
  return watchGas(vm.evm, sentry, isPriced(req) ? READS_GAS_OR_BALANCE : READS_GAS);
}

/**
 * Whether the run of a plain transfer (no data, to an account without code) with 21,000 gas surely succeeds, so its
 * estimate answers 21,000 without running it (issue 26: the run was half of such an estimate's work). Only where every
 * check of that run is known to pass: an unpriced call (no fee checks, no gas paid: the sender only needs the value,
 * which highestAllowance checked), no access list, authorizations or nonce past EIP-2681's bound (an intrinsic gas or
 * a construction error), a sender without code (EIP-3607), a recipient that is no precompile (after the state
 * override's moves), nor the console address (the node log reports a message to it), whose balance cannot overflow,
 * and none of the schedules and consensus rules this does not follow (EIP-7928/8037/8038, clique's signer). Anything
 * else runs as before; estimatePredict.test.ts compares the answers with the run's.
 */
async function transferSucceeds(vm: VM, req: CallRequest): Promise<boolean> {
  const to = req.to!;
  const common = vm.common;
  if (isPriced(req) || req.authorizationList !== undefined || (req.accessList !== undefined && req.accessList.length > 0)) return false;
  if (req.nonce !== undefined && req.nonce >= MAX_NONCE) return false;
  if (common.isActivatedEIP(7928) || common.isActivatedEIP(8037) || common.isActivatedEIP(8038)) return false;
  if (common.consensusType() === ConsensusType.ProofOfAuthority) return false;
  if ((vm.evm as EVM).getPrecompile(to) !== undefined || to.toString() === CONSOLE_ADDRESS) return false;
  const from = req.from ?? createZeroAddress();
  const sender = await vm.stateManager.getAccount(from);
  if (sender !== undefined && !equalsBytes(sender.codeHash, KECCAK256_NULL)) return false;
  const value = req.value ?? 0n;
  if (value > (sender?.balance ?? 0n)) return false;
  const balance = (await vm.stateManager.getAccount(to))?.balance ?? 0n;
  return from.equals(to) || balance + value <= MAX_INTEGER;
}

/** EIP-2681: a nonce must be below 2^64 - 1. */
const MAX_NONCE = 2n ** 64n - 1n;

/** The most gas the call may use: given gas or block gas limit, then capped by funds, RPC cap and EIP-7825. */
async function highestAllowance(vm: VM, block: MinedBlock, req: CallRequest, cap: bigint): Promise<bigint> {
  let hi = req.gas !== undefined && req.gas >= TX_GAS ? req.gas : block.block.header.gasLimit;
  const feeCap = req.maxFeePerGas ?? req.gasPrice ?? (req.maxPriorityFeePerGas !== undefined ? callGasPrice(req, block.block.header.baseFeePerGas) : 0n);
  const from = req.from ?? createZeroAddress();
  const balance = (await vm.stateManager.getAccount(from))?.balance ?? 0n;
  const value = req.value ?? 0n;
  if (feeCap > 0n) {
    if (value >= balance && value > 0n) throw new ExecutionFailed('insufficient funds for transfer');
    const allowance = (balance - value) / feeCap;
    if (hi > allowance) hi = allowance;
  } else if (value > balance) {
    // Unpriced runs skip the fee check but a transfer still needs the value (geth's buyGas check).
    throw new ExecutionFailed(`insufficient funds for gas * price + value: address ${toChecksumAddress(from.toString())} have ${balance} want ${value}`);
  }
  if (hi > cap) hi = cap;
  if (vm.common.isActivatedEIP(7825)) {
    const maxTxGas = vm.common.param('maxTransactionGasLimit');
    if (hi > maxTxGas) hi = maxTxGas;
  }
  return hi;
}

/** ethereumjs's words for a gas limit under the intrinsic gas or the EIP-7623 calldata floor. */
const INTRINSIC = /INTRINSIC_GAS_TOO_LOW|lower than the minimum gas limit|base fee exceeds gas limit|floor/i;

/** An ethereumjs error message without its block/tx debug suffix. */
function cleanMessage(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.replace(/ \((vm hf|block number)=.*$/s, '').replace(/ -> .*$/s, '');
}
