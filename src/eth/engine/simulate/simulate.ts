/**
 * eth_simulateV1 as geth's simulator (internal/ethapi/simulate.go) runs it: blocks on top of a base block, each with
 * its block overrides (number, time, gas limit, fee recipient, prevRandao, base fee, blob base fee, beacon root,
 * withdrawals) and state overrides, its calls run one after the other on the state the previous ones left, and
 * the block built for real (system calls, withdrawals, requests, state/receipts/transactions roots, hash) so later
 * blocks see its hash. Everything happens on a private state (state.ts): the chain never changes.
 */
import type { Block } from '@ethereumjs/block';
import { createBlockHeader } from '@ethereumjs/block';
import { BlockBuilder, type VM } from '@ethereumjs/vm';
import type { Address } from '@ethereumjs/util';
import { ExecutionFailed, SimulationError } from '../../../errors.js';
import { CallTimeout, clockOf, pause, startClock } from '../evm/callClock.js';
import { CALL_TIMEOUT_MS } from '../exec/call.js';
import type { EthChain } from '../chain/chain.js';
import { minedBlock } from '../chain/receipts.js';
import type { MinedBlock } from '../chain/types.js';
import { builderGasUsed, buildWithTransactions, initStateAsGeth, openBuilder, recordTransaction } from '../evm/blockBuilder.js';
import { applyStateOverride, overrideHeader } from '../exec/overrides.js';
import { callError, runSimCall, type CallEnv } from './call.js';
import { sanitizeChain, type SettledBlock } from './sanitize.js';
import type { OverlayState } from '../state/overlayState.js';
import { type BlockForks, checkUnmergedSystemCalls, forksAt, unmergedBlock } from './forks.js';
import { leaseVm, releaseVm, type SimVm, useState } from './simVms.js';
import { resetAt } from './state.js';
import { forkStateOf, withForkFetches } from '../fork/forkReads.js';
import type { SimBlockResult, SimCallResult, SimOptions } from './types.js';

export const MAX_CALLS_PER_BLOCK = 5000;
export const MAX_TOTAL_CALLS = 10000;
/** geth's default RPC gas cap (--rpc.gascap): the gas all calls of one request may use together. */
export const SIMULATE_GAS_BUDGET = 50_000_000n;

const ZERO32 = new Uint8Array(32);

/** The request-level limits geth checks before it resolves the base block. */
export function checkSimulateLimits(opts: SimOptions): void {
  if (opts.blocks.length === 0) throw new SimulationError(-32602, 'empty input');
  if (opts.blocks.length > 256) throw new SimulationError(-38026, 'too many blocks');
  let total = 0;
  for (const b of opts.blocks) {
    if (b.calls.length > MAX_CALLS_PER_BLOCK) throw new SimulationError(-38026, `too many calls in block: ${b.calls.length} > ${MAX_CALLS_PER_BLOCK}`);
    total += b.calls.length;
    if (total > MAX_TOTAL_CALLS) throw new SimulationError(-38026, `too many calls: ${total} > ${MAX_TOTAL_CALLS}`);
  }
}

/** Simulates `opts.blocks` on top of `base`. */
export async function simulate(chain: EthChain, base: MinedBlock, opts: SimOptions): Promise<SimBlockResult[]> {
  try {
    // On a fork, what the simulation reads and the fork has not fetched is fetched, and the simulation run again.
    const fork = forkStateOf(chain);
    return await (fork === undefined ? simulateChain(chain, base, opts) : withForkFetches(fork, () => simulateChain(chain, base, opts)));
  } catch (err) {
    // geth's RPC EVM timeout over the whole request; the clock of each VM yields to the event loop every few ms.
    if (err instanceof CallTimeout) throw new ExecutionFailed(`execution aborted (timeout = ${CALL_TIMEOUT_MS / 1000}s)`);
    throw err;
  }
}

async function simulateChain(chain: EthChain, base: MinedBlock, opts: SimOptions): Promise<SimBlockResult[]> {
  checkSimulateLimits(opts);
  const blocks = sanitizeChain({ number: base.number, timestamp: base.header.timestamp }, opts.blocks);
  const done: Block[] = [];
  const results: SimBlockResult[] = [];
  const budget = { remaining: SIMULATE_GAS_BUDGET };
  // A pooled VM per hardfork met (most requests stay in one), all on the request's one private state.
  const leased = new Map<string, SimVm>();
  let state: OverlayState | undefined;
  let parent: Block = base.block;
  // geth's makeHeaders: each header copies the previous one's difficulty (the base's first) unless overridden.
  let difficulty = base.header.difficulty;
  try {
    for (const block of blocks) {
      difficulty = block.blockOverrides?.difficulty ?? difficulty;
      const forks = forksAt(chain, block.number, block.time, difficulty);
      const fork = forks.rules;
      let sim = leased.get(fork);
      if (sim === undefined) {
        sim = await leaseVm(chain, fork);
        leased.set(fork, sim);
        if (state === undefined) resetAt((state = sim.own), chain, base);
        else useState(sim, state);
        Object.assign(sim.view, { chain, base, done });
        sim.logs.traceTransfers = opts.traceTransfers;
        startClock(sim.vm, CALL_TIMEOUT_MS);
      }
      // As geth's makeHeaders: gas limit, fee recipient and difficulty follow the previous block's (overrides included).
      const result = await simulateBlock(chain, sim, forks, parent, block, difficulty, opts, budget);
      results.push(result);
      done.push(result.mined.block);
      parent = result.mined.block;
    }
    return results;
  } finally {
    for (const sim of leased.values()) releaseVm(chain, sim, state!);
  }
}

/**
 * A look at the VM's clock between two pieces of work (calls, blocks): a simulated transfer runs no opcode, so the
 * EVM never checks the clock (issue 25: 256 blocks of 9 transfers held the gateway for 0.9-1.5 s). After 1 ms of work
 * it yields to the event loop. The request's 5 s counts its EVM work only, as before: a new slice starts before each
 * EVM run, so neither the time other requests ran nor the work between runs is counted.
 */
async function resumeClock(vm: VM): Promise<void> {
  const wait = pause(vm);
  if (wait !== undefined) await wait;
  else clockOf(vm).sliceStart = performance.now();
}

async function simulateBlock(
  chain: EthChain,
  sim: SimVm,
  forks: BlockForks,
  parent: Block,
  block: SettledBlock,
  difficulty: bigint,
  opts: SimOptions,
  budget: { remaining: bigint },
): Promise<SimBlockResult> {
  const o = block.blockOverrides;
  const { vm, logs: collector } = sim;
  const common = vm.common;
  const ph = parent.header;
  let baseFeePerGas: bigint | undefined;
  if (common.isActivatedEIP(1559)) {
    baseFeePerGas = o?.baseFeePerGas ?? (opts.validation ? (ph.baseFeePerGas === undefined ? common.param('initialBaseFee') : ph.calcNextBaseFee()) : 0n);
  }
  let excessBlobGas: bigint | undefined;
  if (common.isActivatedEIP(4844)) excessBlobGas = ph.excessBlobGas === undefined ? 0n : ph.calcNextExcessBlobGas(common);
  const withdrawals = common.isActivatedEIP(4895)
    ? (o?.withdrawals ?? []).map((w) => ({ index: w.index, validatorIndex: w.validatorIndex, address: w.address, amount: w.amount }))
    : undefined;
  const headerData = {
    parentHash: parent.hash(),
    number: block.number,
    timestamp: block.time,
    gasLimit: o?.gasLimit ?? ph.gasLimit,
    coinbase: o?.feeRecipient ?? ph.coinbase,
    difficulty,
    mixHash: o?.prevRandao ?? ZERO32,
    baseFeePerGas,
    excessBlobGas,
    parentBeaconBlockRoot: common.isActivatedEIP(4788) ? (o?.beaconRoot ?? ZERO32) : undefined,
  };
  // Not buildBlock(): it runs the system calls at once, and state overrides come first (geth applies them before).
  const builder = new BlockBuilder(vm, {
    parentBlock: parent,
    headerData,
    withdrawals,
    blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true } as never,
  });
  const restore = await applyStateOverride(vm, block.stateOverrides);
  try {
    checkUnmergedSystemCalls(chain, forks);
    await openBuilder(builder);
    await resumeClock(vm);
    await initStateAsGeth(builder);
    const header = createBlockHeader({ ...headerData, gasUsed: 0n }, { common, skipConsensusFormatValidation: true });
    const runHeader = overrideHeader(header, o?.blobBaseFee === undefined ? undefined : { blobBaseFee: o.blobBaseFee });
    const noBaseFeeHeader = overrideHeader(runHeader, { baseFeePerGas: 0n });
    const txCommon = sim.txCommon;
    // The system calls of initState ran on this VM too: their frames are no call's.
    collector.take();
    collector.newBlock();
    const calls: SimCallResult[] = [];
    const senders: Address[] = [];
    for (const call of block.calls) {
      const used = builderGasUsed(builder);
      const env: CallEnv = {
        vm,
        txCommon,
        header: { baseFeePerGas, gasLimit: headerData.gasLimit },
        runBlock: { header: runHeader },
        runBlockNoBaseFee: { header: noBaseFeeHeader },
        validate: opts.validation,
        chainId: common.chainId(),
        remaining: headerData.gasLimit - used,
        budget: budget.remaining,
        blockGasUsed: used,
      };
      await resumeClock(vm);
      const run = await runSimCall(env, call);
      recordTransaction(builder, run.tx, run.result);
      senders.push(run.from);
      const r = run.result;
      if (r.totalGasSpent > budget.remaining)
        throw new SimulationError(-32000, `RPC gas cap exhausted: need ${r.totalGasSpent}, remaining ${budget.remaining}`);
      budget.remaining -= r.totalGasSpent;
      const err = r.execResult.exceptionError;
      const logs = collector.take();
      const maxUsed = r.execResult.executionGasUsed + run.tx.getIntrinsicGas();
      calls.push({
        // geth's result.Return(): nothing when the call failed (the revert payload goes in the error).
        returnData: err === undefined ? r.execResult.returnValue : new Uint8Array(),
        logs: err === undefined ? logs : [],
        gasUsed: r.totalGasSpent,
        maxUsedGas: maxUsed > r.totalGasSpent ? maxUsed : r.totalGasSpent,
        status: err === undefined ? 1 : 0,
        error: err === undefined ? undefined : callError(err.error, r.execResult.returnValue, run.gasCapped),
      });
    }
    await resumeClock(vm);
    let built = await buildWithTransactions(builder);
    if (forks.header !== forks.rules) built = await unmergedBlock(chain, forks, built, parent, o?.withdrawals ?? [], o?.beaconRoot);
    const mined = minedBlock(
      built,
      0n,
      senders,
      built.transactions.map(() => ({ cumulativeGasUsed: 0n, gasUsed: 0n, effectiveGasPrice: 0n, logsBloom: new Uint8Array(256), logs: [] })),
    );
    return { mined, calls };
  } finally {
    restore();
  }
}
