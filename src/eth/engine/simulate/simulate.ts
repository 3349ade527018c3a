/**
 * eth_simulateV1 as geth's simulator (internal/ethapi/simulate.go) runs it: blocks on top of a base block, each with
 * its block overrides (number, time, gas limit, fee recipient, prevRandao, base fee, blob base fee, beacon root,
 * withdrawals) and state overrides, its calls run one after the other on the state the previous ones left, and
 * the block built for real (system calls, withdrawals, requests, state/receipts/transactions roots, hash) so later
 * blocks see its hash. Everything happens on a private state (state.ts): the chain never changes.
 */
import { Hardfork } from '@ethereumjs/common';
import type { Block } from '@ethereumjs/block';
import { createBlockHeader } from '@ethereumjs/block';
import { buildBlock, createVM, type VM } from '@ethereumjs/vm';
import type { Address } from '@ethereumjs/util';
import { ExecutionFailed, SimulationError } from '../../../errors.js';
import { CallTimeout, clockOf, startClock } from '../evm/callClock.js';
import { CALL_TIMEOUT_MS } from '../exec/call.js';
import type { EthChain } from '../chain/chain.js';
import { speedUpInterpreter } from '../evm/index.js';
import { minedBlock } from '../chain/receipts.js';
import type { MinedBlock } from '../chain/types.js';
import { builderGasUsed, buildWithTransactions, openBuilder, recordTransaction } from '../evm/blockBuilder.js';
import { applyStateOverride, overrideHeader } from '../exec/overrides.js';
import { callError, runSimCall, type CallEnv } from './call.js';
import { LogCollector } from './logs.js';
import { sanitizeChain, type SettledBlock } from './sanitize.js';
import { resetAt, simulationState } from './state.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
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
    return await simulateChain(chain, base, opts);
  } catch (err) {
    // geth's RPC EVM timeout over the whole request; the clock of each VM yields to the event loop every few ms.
    if (err instanceof CallTimeout) throw new ExecutionFailed(`execution aborted (timeout = ${CALL_TIMEOUT_MS / 1000}s)`);
    throw err;
  }
}

async function simulateChain(chain: EthChain, base: MinedBlock, opts: SimOptions): Promise<SimBlockResult[]> {
  checkSimulateLimits(opts);
  const blocks = sanitizeChain({ number: base.number, timestamp: base.header.timestamp }, opts.blocks);
  const baseCommon = chain.commonAt(base.number, base.header.timestamp);
  const state = simulationState(chain, baseCommon.customCrypto.keccak256 ?? keccak_256);
  resetAt(state, chain, base);
  const done: Block[] = [];
  const results: SimBlockResult[] = [];
  const budget = { remaining: SIMULATE_GAS_BUDGET };
  const view = simulatedView(chain, base, done);
  // One VM per hardfork met (a VM costs milliseconds to make; most requests stay in one hardfork).
  const vms = new Map<string, SimVm>();
  let parent: Block = base.block;
  for (const block of blocks) {
    const common = chain.commonAt(block.number, block.time);
    let sim = vms.get(common.hardfork());
    if (sim === undefined) {
      const vm = await createVM({ common, stateManager: state as never, blockchain: view as never });
      speedUpInterpreter(vm.evm);
      startClock(vm, CALL_TIMEOUT_MS);
      vms.set(common.hardfork(), (sim = { vm, logs: new LogCollector(vm, opts.traceTransfers) }));
    }
    // As geth's makeHeaders: gas limit, fee recipient and difficulty follow the previous block's (overrides included).
    const result = await simulateBlock(sim, base, parent, block, opts, budget);
    results.push(result);
    done.push(result.mined.block);
    parent = result.mined.block;
  }
  return results;
}

/** BLOCKHASH of simulated blocks: the chain's blocks up to the base, then the blocks simulated so far. */
function simulatedView(chain: EthChain, base: MinedBlock, done: readonly Block[]) {
  return {
    async getBlock(n: number): Promise<Block> {
      if (BigInt(n) <= base.number) return (chain.blockByNumber(BigInt(n)) ?? base).block;
      const sim = done.find((b) => b.header.number === BigInt(n));
      if (sim !== undefined) return sim;
      return { hash: () => ZERO32 } as unknown as Block;
    },
    async putBlock(): Promise<void> {},
    shallowCopy() {
      return this;
    },
    async validateHeader(): Promise<void> {},
  };
}

/**
 * A new slice of the VM's clock before each EVM run: the time other requests ran while this one awaited is not
 * counted against its 5 s (only its own EVM time is).
 */
function resumeClock(vm: VM): void {
  clockOf(vm).sliceStart = performance.now();
}

/** A VM of the request (on its private state) and the log collector hooked into it. */
interface SimVm {
  readonly vm: VM;
  readonly logs: LogCollector;
}

async function simulateBlock(
  sim: SimVm,
  _base: MinedBlock,
  parent: Block,
  block: SettledBlock,
  opts: SimOptions,
  budget: { remaining: bigint },
): Promise<SimBlockResult> {
  const o = block.blockOverrides;
  const { vm, logs: collector } = sim;
  const common = vm.common;
  const ph = parent.header;
  const postMerge = common.gteHardfork(Hardfork.Paris);
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
    difficulty: o?.difficulty ?? (postMerge ? 0n : ph.difficulty),
    mixHash: o?.prevRandao ?? ZERO32,
    baseFeePerGas,
    excessBlobGas,
    parentBeaconBlockRoot: common.isActivatedEIP(4788) ? (o?.beaconRoot ?? ZERO32) : undefined,
  };
  const builder = await buildBlock(vm, {
    parentBlock: parent,
    headerData,
    withdrawals,
    blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true } as never,
  });
  // State overrides come first (geth applies them before the system calls).
  const restore = await applyStateOverride(vm, block.stateOverrides);
  try {
    await openBuilder(builder);
    resumeClock(vm);
    await builder.initState();
    const header = createBlockHeader({ ...headerData, gasUsed: 0n }, { common, skipConsensusFormatValidation: true });
    const runHeader = overrideHeader(header, o?.blobBaseFee === undefined ? undefined : { blobBaseFee: o.blobBaseFee });
    const noBaseFeeHeader = overrideHeader(runHeader, { baseFeePerGas: 0n });
    const txCommon = common.isActivatedEIP(7825) ? common.copy() : common;
    if (txCommon !== common) txCommon.setHardfork(Hardfork.Prague);
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
      resumeClock(vm);
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
    resumeClock(vm);
    const built = await buildWithTransactions(builder);
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
