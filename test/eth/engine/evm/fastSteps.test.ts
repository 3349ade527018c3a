/**
 * `step` events of the fast loop (src/eth/engine/evm/steps.ts) against stock @ethereumjs: every transaction of the
 * tracing chain's block 2 (calls, logs, reverts with data, panics, nested CALL/STATICCALL/DELEGATECALL/CALLCODE,
 * CREATE/CREATE2, a precompile, out of gas) run in order on an opted-in VM and on an untouched one over the same state,
 * with a synchronous step listener: the same events, field for field, in the same order, and the same results; an
 * asynchronous listener keeps a frame on the stock loop. A listener marked LEAN_STEPS gets the same events without
 * memory's bytes, PUSH immediates and REVERT data.
 */
import { bytesToHex } from '@ethereumjs/util';
import { runTx, type VM } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { fastLoopRuns } from '../../../../src/eth/engine/evm/loop.js';
import { isOptedIn } from '../../../../src/eth/engine/evm/optIn.js';
import { FLAT_STEP, LEAN_STEPS, type FlatStep } from '../../../../src/eth/engine/evm/steps.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { traceSeed } from '../trace/traceSeed.js';

const hexOf = (b: unknown) => (b instanceof Uint8Array ? bytesToHex(b) : b);

/** Every field of a step event, as plain values (accounts and addresses as text). */
function record(e: any): unknown {
  return {
    pc: e.pc,
    gasLeft: e.gasLeft,
    gasRefund: e.gasRefund,
    opcode: { ...e.opcode },
    stack: [...e.stack],
    depth: e.depth,
    address: e.address?.toString(),
    // Not its storage root: a call state (the opted-in VM's) does not compute one, a MerkleStateManager does.
    account: e.account === undefined ? undefined : [e.account.nonce, e.account.balance, bytesToHex(e.account.codeHash)],
    memory: hexOf(e.memory),
    memoryWordCount: e.memoryWordCount,
    codeAddress: e.codeAddress?.toString(),
    hasState: e.stateManager !== undefined,
    eofSection: e.eofSection,
    immediate: hexOf(e.immediate),
    error: hexOf(e.error),
    eofFunctionDepth: e.eofFunctionDepth,
    keys: Object.keys(e).join(','),
  };
}

/** Runs the block's transactions on `vm` (reverted after), recording each step with a listener of `arity` parameters. */
/** The fields a positional (FLAT_STEP) listener gets, from an event. */
/** Calls of a positional listener in its positional form. */
let flatCalls = 0;
const flatFields = (e: any) => ({
  pc: e.pc,
  name: e.opcode.name,
  code: e.opcode.code,
  dynamicFee: e.opcode.dynamicFee,
  gasLeft: e.gasLeft,
  gasRefund: e.gasRefund,
  stack: [...e.stack],
  depth: e.depth,
  address: e.address?.toString(),
  hasState: e.stateManager !== undefined,
});

async function stepsOn(vm: VM, block: MinedBlock, arity: 1 | 2 | 'lean' | 'flat'): Promise<{ steps: unknown[]; results: unknown[] }> {
  const steps: unknown[] = [];
  const results: unknown[] = [];
  const events = vm.evm.events as any;
  const sync = (e: any) => void steps.push(record(e));
  const async = (e: any, resolve: () => void) => {
    steps.push(record(e));
    resolve();
  };
  const lean = (e: any) => void steps.push(record(e));
  (lean as any)[LEAN_STEPS] = true;
  // Positional: alone on the fast loop it is called with the fields; a frame run stock calls it with an event.
  const flatted = (e: any) => void steps.push(flatFields(e));
  (flatted as any)[LEAN_STEPS] = true;
  const flat: FlatStep = (pc, name, code, dynamicFee, gasLeft, gasRefund, stack, depth, address, state) => {
    flatCalls++;
    steps.push({ pc, name, code, dynamicFee, gasLeft, gasRefund, stack: [...stack], depth, address: address?.toString(), hasState: state !== undefined });
  };
  (flatted as any)[FLAT_STEP] = flat;
  const listener = arity === 1 ? sync : arity === 2 ? async : arity === 'lean' ? lean : flatted;
  events.on('step', listener);
  await vm.stateManager.checkpoint();
  try {
    for (let i = 0; i < block.txHashes.length; i++) {
      const tx = block.block.transactions[i]!;
      const r = await runTx(vm, { tx, block: { header: block.header } as never, skipBlockGasLimitValidation: true, skipHardForkValidation: true });
      results.push({
        gas: r.totalGasSpent,
        error: r.execResult.exceptionError?.error,
        out: bytesToHex(r.execResult.returnValue),
        logs: r.execResult.logs?.length,
      });
    }
  } finally {
    await vm.stateManager.revert();
    events.off('step', listener);
  }
  return { steps, results };
}

describe.each(['osaka', 'shanghai'])('fast loop step events at %s', (fork) => {
  it('are the stock events, field for field', async () => {
    const chain = await chainFromSeed(parseSeed(traceSeed(fork), 'trace seed'));
    const parent = chain.blockByNumber(1n)!;
    const block = chain.blockByNumber(2n)!;
    const stockVm = await chain.vmAt(parent);
    expect(isOptedIn(stockVm.evm)).toBe(false);
    const stock = await stepsOn(stockVm, block, 1);
    const before = { ...fastLoopRuns };
    const fast = await chain.withCallVmAt(parent, async (vm) => {
      expect(isOptedIn(vm.evm)).toBe(true);
      return stepsOn(vm, block, 1);
    });
    // The fast loop ran the frames, with their steps.
    expect(fastLoopRuns.stepped - before.stepped).toBeGreaterThan(15);
    expect(fast.results).toEqual(stock.results);
    expect(stock.steps.length).toBeGreaterThan(2000);
    expect(fast.steps.length).toBe(stock.steps.length);
    for (let i = 0; i < stock.steps.length; i++) expect(fast.steps[i], `step ${i}`).toEqual(stock.steps[i]);
    // Failures stepped: a REVERT carries its data; out of gas in a gas handler.
    expect(stock.steps.some((s: any) => s.opcode.name === 'REVERT' && typeof s.error === 'string' && s.error.length > 2)).toBe(true);
    expect(stock.results.some((r: any) => r.error === 'out of gas')).toBe(true);

    // An asynchronous listener: frames run stock, with the same events.
    const stepped = fastLoopRuns.stepped;
    const awaited = await chain.withCallVmAt(parent, (vm) => stepsOn(vm, block, 2));
    expect(fastLoopRuns.stepped).toBe(stepped);
    expect(awaited.steps).toEqual(stock.steps);

    // A lean listener: the same events but memory's bytes, PUSH immediates and REVERT data (memory's size kept).
    const leaned = await chain.withCallVmAt(parent, (vm) => stepsOn(vm, block, 'lean'));
    expect(fastLoopRuns.stepped).toBeGreaterThan(stepped);
    expect(leaned.results).toEqual(stock.results);
    expect(leaned.steps.length).toBe(stock.steps.length);
    const withoutBytes = (s: any) => ({ ...s, memory: '0x', immediate: undefined, error: undefined });
    for (let i = 0; i < stock.steps.length; i++) expect(leaned.steps[i], `lean step ${i}`).toEqual(withoutBytes(stock.steps[i]));
    expect(stock.steps.some((s: any) => s.memory.length > 2 && s.immediate !== undefined)).toBe(true);

    // A positional (FLAT_STEP) listener: the same fields, one call per opcode.
    const flatStepped = fastLoopRuns.stepped;
    flatCalls = 0;
    const flat = await chain.withCallVmAt(parent, (vm) => stepsOn(vm, block, 'flat'));
    expect(fastLoopRuns.stepped).toBeGreaterThan(flatStepped);
    expect(flatCalls).toBeGreaterThan(2000);
    expect(flat.results).toEqual(stock.results);
    expect(flat.steps.length).toBe(stock.steps.length);
    const rawStock = await stepsOn(await chain.vmAt(parent), block, 'flat');
    expect(rawStock.steps.length).toBe(stock.steps.length);
    for (let i = 0; i < stock.steps.length; i++) expect(flat.steps[i], `flat step ${i}`).toEqual(rawStock.steps[i]);
  }, 60_000);
});
