/**
 * Running a transaction under a tracer, as geth's debug API does (eth/tracers/api.go): a mined transaction runs again
 * on the state of its parent block, after the block's system calls (EIP-4788 beacon root, EIP-2935 parent hash) and
 * the transactions before it, under its block's rules and header; a call (debug_traceCall) runs as eth_call runs it,
 * as a transaction without nonce check (and without fee check when it names no price), on a block's post-state or,
 * with `txIndex`, on the state before that transaction of the block. Everything runs inside a checkpoint that is
 * reverted: tracing never changes the chain.
 *
 * Each transaction has `timeoutMs` (geth's `timeout`, default 5 s): past it the run stops with "execution timeout".
 */
import {
  Address,
  bigIntToAddressBytes,
  bigIntToBytes,
  createAddressFromString,
  eoaCode7702RecoverAuthority,
  generateAddress,
  setLengthLeft,
} from '@ethereumjs/util';
import type { TypedTransaction } from '@ethereumjs/tx';
import { createVM, runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import { ExecutionFailed, LimitExceeded } from '../../../errors.js';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock, StoredReceipt } from '../chain/types.js';
import { buildCallTx, callContext, cappedGas, freshJournal, isPriced, withTxVmAt, type CallRequest } from '../exec/call.js';
import { applyStateOverride, overrideBlock, type BlockOverride, type StateOverride } from '../exec/overrides.js';
import { useOverrideHashes } from '../exec/overrideHashes.js';
import { CallTimeout, startClock } from '../evm/callClock.js';
import { attach, TraceAborted, type StepState, type Tracer } from './hooks.js';
import { StructLogger, TraceTooLarge } from './structLogger.js';
import { traceBudgetOf } from './budget.js';
import { CallTracer } from './callTracer.js';
import { PrestateTracer } from './prestateTracer.js';
import { FourByteTracer, NoopTracer } from './fourByteTracer.js';
import type { TraceResult, TracerSpec, TxTrace } from './types.js';
import { replayCacheOf, type BlockReplays } from './replayCache.js';
import { OverlayState } from '../state/overlayState.js';

/** geth's defaultTraceTimeout. */
export const TRACE_TIMEOUT_MS = 5_000;

const BEACON_ROOTS = createAddressFromString('0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02');

/** What a traced run is given. */
export interface TraceRequest {
  readonly spec: TracerSpec;
  readonly timeoutMs: number;
  /** The struct logs' byte budget (structLogger.ts); default: the chain's (budget.ts). */
  readonly maxBytes?: number;
}

/** `req` with the chain's trace byte budget when it names none. */
const budgeted = (chain: EthChain, req: TraceRequest): TraceRequest => (req.maxBytes !== undefined ? req : { ...req, maxBytes: traceBudgetOf(chain) });

/** The header a run sees. */
type Context = { header: MinedBlock['header'] };

const txAt = (block: MinedBlock, i: number): TypedTransaction => block.transactionAt?.(i) ?? block.block.transactions[i]!;
const receiptAt = (block: MinedBlock, i: number): StoredReceipt => block.receiptAt?.(i) ?? block.receipts[i]!;

/** The transaction with its sender known (no signature recovery on a run again). */
function withSender(tx: TypedTransaction, sender: Address): TypedTransaction {
  return Object.create(tx, { getSenderAddress: { value: () => sender } }) as TypedTransaction;
}

/**
 * Runs `fn` with a VM at `stateBlock`'s post-state under `ruleBlock`'s rules: a pooled VM when both blocks share a
 * hardfork (always, without a schedule), else a VM of its own.
 */
async function withTraceVm<T>(chain: EthChain, stateBlock: MinedBlock, ruleBlock: MinedBlock, fn: (vm: VM) => Promise<T>): Promise<T> {
  const rules = hardforkOf(chain, ruleBlock);
  const own = async () =>
    createVM({ common: chain.commonAt(ruleBlock.number, ruleBlock.header.timestamp), stateManager: await chain.stateAt(stateBlock), blockchain: chain.view });
  // Before Byzantium a run computes a state root per transaction, which leaves a pooled VM's caches behind: a VM of its own.
  if (!rules.byzantium) return fn(await own());
  if (ruleBlock === stateBlock || hardforkOf(chain, stateBlock).name === rules.name) return withTxVmAt(chain, stateBlock, fn);
  return fn(await own());
}

/** Each block's hardfork, found once (a Common copy each time otherwise). */
const hardforks = new WeakMap<MinedBlock, { name: string; byzantium: boolean }>();
function hardforkOf(chain: EthChain, block: MinedBlock): { name: string; byzantium: boolean } {
  let hf = hardforks.get(block);
  if (hf === undefined) {
    const common = chain.commonAt(block.number, block.header.timestamp);
    hardforks.set(block, (hf = { name: common.hardfork(), byzantium: common.gteHardfork('byzantium') }));
  }
  return hf;
}

/** Runs `fn` inside a checkpoint that is reverted afterwards. */
async function reverted<T>(vm: VM, fn: () => Promise<T>): Promise<T> {
  freshJournal(vm);
  await vm.stateManager.checkpoint();
  try {
    return await fn();
  } finally {
    await vm.stateManager.revert();
  }
}

/** The block's system calls before its transactions (what block building does first). */
async function systemCalls(vm: VM, block: MinedBlock): Promise<void> {
  const header = block.header;
  const state = vm.stateManager;
  if (vm.common.isActivatedEIP(4788) && header.parentBeaconBlockRoot !== undefined && (await state.getCode(BEACON_ROOTS)).length > 0) {
    const length = BigInt(vm.common.param('historicalRootsLength'));
    const index = header.timestamp % length;
    await state.putStorage(BEACON_ROOTS, setLengthLeft(bigIntToBytes(index), 32), bigIntToBytes(header.timestamp));
    await state.putStorage(BEACON_ROOTS, setLengthLeft(bigIntToBytes(index + length), 32), header.parentBeaconBlockRoot);
  }
  if (vm.common.isActivatedEIP(2935)) {
    const history = new Address(bigIntToAddressBytes(vm.common.param('historyStorageAddress')));
    if ((await state.getCode(history)).length > 0) {
      const key = (header.number - 1n) % BigInt(vm.common.param('historyServeWindow'));
      await state.putStorage(history, setLengthLeft(bigIntToBytes(key), 32), header.parentHash);
    }
  }
}

/**
 * Runs the block's system calls and its first `count` transactions (untraced); gives the logs they made. With `kept`
 * (the block's kept states, replayCache.ts) on a call state, it starts from the nearest state kept at or before
 * `count` and keeps the states it passes.
 */
async function replayUpTo(vm: VM, block: MinedBlock, count: number, kept?: BlockReplays): Promise<number> {
  const state = kept !== undefined && vm.stateManager instanceof OverlayState ? vm.stateManager : undefined;
  const near = state === undefined ? undefined : kept!.nearest(count);
  let from = 0;
  if (near !== undefined) {
    state!.restore(near.overlay);
    from = near.count;
  } else await systemCalls(vm, block);
  for (let i = from; i < count; i++) {
    await runTx(vm, {
      tx: withSender(txAt(block, i), block.senders[i]!),
      block: { header: block.header } as never,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
    });
    if (state !== undefined) kept!.keep(i + 1, () => state.overlay());
  }
  let logs = 0;
  for (let i = 0; i < count; i++) logs += receiptAt(block, i).logs.length;
  return logs;
}

/** What a run needs to know about the transaction it traces. */
interface Run {
  readonly tx: TypedTransaction;
  readonly sender: Address;
  readonly context: Context;
  /** Logs of the block before this transaction. */
  readonly firstLogIndex: number;
  readonly skipNonce?: boolean;
  readonly skipBalance?: boolean;
}

/** A tracer for `spec`, and how it answers once the transaction ran. */
function tracerFor(
  vm: VM,
  spec: TracerSpec,
  run: Run,
  maxBytes: number | undefined,
): { tracer: Tracer; start?: () => Promise<void>; end?: () => Promise<void>; result: (gasUsed: bigint) => TraceResult } {
  switch (spec.kind) {
    case 'structLogger': {
      const t = new StructLogger(spec.opts, maxBytes);
      return { tracer: t, end: () => t.settle(), result: (g) => t.result(g) };
    }
    case 'callTracer': {
      const t = new CallTracer(spec.opts, run.tx.gasLimit, run.firstLogIndex);
      return { tracer: t, result: (g) => t.result(g) };
    }
    case 'prestateTracer': {
      const t = new PrestateTracer(spec.opts, vm.stateManager as unknown as StepState);
      const start = async () => {
        const from = run.sender;
        const isCreate = run.tx.to === undefined;
        const to = run.tx.to ?? new Address(generateAddress(from.bytes, bigIntToBytes((await vm.stateManager.getAccount(from))?.nonce ?? 0n)));
        const list = (run.tx as { authorizationList?: unknown[] }).authorizationList ?? [];
        const authorities: Address[] = [];
        for (const auth of list) {
          try {
            authorities.push(eoaCode7702RecoverAuthority(auth as never));
          } catch {
            // An invalid authorization is skipped, as geth skips it.
          }
        }
        await t.txStart({
          from,
          to,
          isCreate,
          coinbase: run.context.header.coinbase,
          authorities,
          prague: vm.common.isActivatedEIP(7702),
          cancun: vm.common.isActivatedEIP(6780),
        });
      };
      return { tracer: t, start, end: () => t.txEnd(), result: () => t.result() };
    }
    case '4byteTracer': {
      const t = new FourByteTracer((a) => (vm.evm as unknown as { getPrecompile(a: Address): unknown }).getPrecompile(a) !== undefined);
      return { tracer: t, result: () => t.result() };
    }
    case 'noopTracer': {
      const t = new NoopTracer();
      return { tracer: t, result: () => t.result() };
    }
  }
}

/** Runs one transaction on `vm` under the tracer of `req` (its state changes stay, inside the caller's checkpoint). */
async function runTraced(vm: VM, run: Run, req: TraceRequest): Promise<TraceResult> {
  const { tracer, start, end, result } = tracerFor(vm, req.spec, run, req.maxBytes);
  const deadline = performance.now() + req.timeoutMs;
  const check = () => {
    if (performance.now() > deadline) throw new TraceAborted();
  };
  await start?.();
  const clock = startClock(vm, req.timeoutMs);
  const listening = attach(vm, tracer, check);
  let res!: RunTxResult;
  try {
    res = await runTx(vm, {
      tx: withSender(run.tx, run.sender),
      block: run.context as never,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
      skipNonce: run.skipNonce,
      skipBalance: run.skipBalance,
    });
  } catch (err) {
    if (err instanceof CallTimeout || err instanceof TraceAborted) throw new ExecutionFailed('execution timeout');
    if (err instanceof TraceTooLarge) throw tooLarge(err);
    throw new ExecutionFailed(`tracing failed: ${err instanceof Error ? err.message.replace(/ -> .*$/s, '') : String(err)}`);
  } finally {
    listening.detach();
    clock.remaining = Infinity;
  }
  try {
    await end?.();
  } catch (err) {
    if (err instanceof TraceTooLarge) throw tooLarge(err);
    throw err;
  }
  return result(res.totalGasSpent);
}

/** The -32005 answer of a trace past its byte budget, naming the limit and how to stay under it. */
const tooLarge = (err: TraceTooLarge) =>
  new LimitExceeded(
    `trace too large: the struct logs would take more than ${err.maxBytes} bytes (the trace byte limit, --max-trace-bytes); ` +
      'trace with a smaller limit, without enableMemory or with disableStack/disableStorage, or with callTracer',
  );

/**
 * Traces the transaction at `index` of `block` on `vm`, a VM at the parent's post-state under the block's rules
 * (for tests: any VM; see traceTransaction).
 */
export function traceTxOn(vm: VM, block: MinedBlock, index: number, req: TraceRequest, kept?: BlockReplays): Promise<TraceResult> {
  return reverted(vm, async () => {
    const firstLogIndex = await replayUpTo(vm, block, index, kept);
    const result = await runTraced(vm, { tx: txAt(block, index), sender: block.senders[index]!, context: { header: block.header }, firstLogIndex }, req);
    // The traced run left the state the transaction leaves (tracers only read): the next transaction's starting point.
    const state = vm.stateManager;
    if (kept !== undefined && state instanceof OverlayState) kept.keep(index + 1, () => state.overlay());
    return result;
  });
}

/** The parent of a block that is not genesis. */
function parentOf(chain: EthChain, block: MinedBlock): MinedBlock {
  if (block.number === 0n) throw new ExecutionFailed('genesis is not traceable');
  return chain.blockByNumber(block.number - 1n)!;
}

/** debug_traceTransaction: the transaction at `index` of `block`, traced. */
export async function traceTransaction(chain: EthChain, block: MinedBlock, index: number, req: TraceRequest): Promise<TraceResult> {
  const parent = parentOf(chain, block);
  const kept = replayCacheOf(chain).of(block, chain.stateRootOf(parent));
  return withTraceVm(chain, parent, block, (vm) => traceTxOn(vm, block, index, budgeted(chain, req), kept));
}

/** Traces every transaction of `block` on `vm`, a VM at the parent's post-state under the block's rules (see traceBlock). */
export function traceBlockOn(vm: VM, block: MinedBlock, req: TraceRequest): Promise<TxTrace[]> {
  return reverted(vm, async () => {
    await systemCalls(vm, block);
    const traces: TxTrace[] = [];
    let logs = 0;
    for (let i = 0; i < block.txHashes.length; i++) {
      const result = await runTraced(vm, { tx: txAt(block, i), sender: block.senders[i]!, context: { header: block.header }, firstLogIndex: logs }, req);
      traces.push({ txHash: block.txHashes[i]!, result });
      logs += receiptAt(block, i).logs.length;
    }
    return traces;
  });
}

/** debug_traceBlockByNumber/ByHash: every transaction of `block`, traced in order on the state the ones before left. */
export async function traceBlock(chain: EthChain, block: MinedBlock, req: TraceRequest): Promise<TxTrace[]> {
  const parent = parentOf(chain, block);
  return withTraceVm(chain, parent, block, (vm) => traceBlockOn(vm, block, budgeted(chain, req)));
}

/**
 * debug_traceCall: `call` traced as eth_call runs it, on `block`'s post-state; with `txIndex`, on the state before
 * that transaction of `block` (its parent's, the system calls and the transactions before it), in `block`'s context.
 * A block override changes the header the traced call sees (and what BLOCKHASH reads, as geth's GetHashFn), not the
 * gas cap, the rules or the transactions replayed before it.
 */
export async function traceCall(
  chain: EthChain,
  block: MinedBlock,
  call: CallRequest,
  req: TraceRequest,
  txIndex?: number,
  stateOverrides?: StateOverride,
  blockOverrides?: BlockOverride,
): Promise<TraceResult> {
  if (txIndex !== undefined && (txIndex < 0 || txIndex >= block.txHashes.length)) throw new ExecutionFailed(`transaction index ${txIndex} out of range`);
  req = budgeted(chain, req);
  const seen = overrideBlock(block, blockOverrides);
  const traceIt = async (vm: VM, firstLogIndex: number) => {
    // From Osaka (EIP-7825) a transaction carries at most 2^24 gas: the call runs with at most that.
    let gas = cappedGas(block, call.gas);
    if (vm.common.isActivatedEIP(7825)) {
      const most = BigInt(vm.common.param('maxTransactionGasLimit'));
      if (gas > most) gas = most;
    }
    const { tx, priced } = buildCallTx(vm, seen, call, gas);
    const context = isPriced(call) ? { header: seen.header } : callContext(seen, call);
    // Overrides go into the state inside the reverted checkpoint (precompile moves are swapped back after), as eth_call's.
    const restore = await applyStateOverride(vm, stateOverrides);
    const restoreHashes = useOverrideHashes(vm, block, blockOverrides);
    try {
      return await runTraced(vm, { tx, sender: tx.getSenderAddress(), context, firstLogIndex, skipNonce: true, skipBalance: !priced }, req);
    } finally {
      restoreHashes();
      restore();
    }
  };
  if (txIndex === undefined) return withTraceVm(chain, block, block, (vm) => reverted(vm, () => traceIt(vm, 0)));
  const parent = parentOf(chain, block);
  const kept = replayCacheOf(chain).of(block, chain.stateRootOf(parent));
  return withTraceVm(chain, parent, block, (vm) => reverted(vm, async () => traceIt(vm, await replayUpTo(vm, block, txIndex, kept))));
}
