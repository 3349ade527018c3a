/**
 * The frame hooks (src/eth/engine/evm/frameHooks.ts) only watch: a block's transactions run on a VM with them
 * installed give exactly what they give on a stock VM (gas, errors, output, logs, created addresses, post-state root),
 * on a stock and on a fast-path VM, while the hooks see the frames @ethereumjs makes no message for; and undoing them
 * puts the stock handlers back.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { Account, bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { createVM, runTx, type VM } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { hookFrames, type UnstartedFrame } from '../../../../src/eth/engine/evm/frameHooks.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { framesSeed, POOR_CREATOR, TWICE } from '../trace/traceGapsCode.js';
import { traceSeed } from '../trace/traceSeed.js';

const OPS = [0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xfa, 0xff];

/** Runs every transaction of `block` on `vm` (committed): what each gave, and the state root after. */
async function runAll(vm: VM, block: MinedBlock, withRoot = true) {
  const results: unknown[] = [];
  for (let i = 0; i < block.txHashes.length; i++) {
    const tx = block.block.transactions[i]!;
    const sender = block.senders[i]!;
    const res = await runTx(vm, {
      tx: Object.create(tx, { getSenderAddress: { value: () => sender } }),
      block: { header: block.header } as never,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
    });
    results.push({
      gas: res.totalGasSpent,
      error: res.execResult.exceptionError?.error,
      output: bytesToHex(res.execResult.returnValue),
      logs: res.execResult.logs?.length ?? 0,
      created: res.createdAddress?.toString(),
    });
  }
  return { results, root: withRoot ? bytesToHex(await vm.stateManager.getStateRoot()) : undefined };
}

describe.each(['osaka', 'homestead'])('frame hooks at %s', (fork) => {
  it('change nothing a run gives, and see the frames without a message', async () => {
    const chain = await chainFromSeed(parseSeed(framesSeed(fork), `frames seed ${fork}`));
    const parent = chain.blockByNumber(0n)!;
    const block = chain.blockByNumber(1n)!;
    const stock = await runAll(await chain.vmAt(parent), block);
    expect(stock.results.map((r: any) => r.gas)).toEqual(block.receipts.map((r) => r.gasUsed));

    const hooked = await chain.vmAt(parent);
    const table = (hooked.evm as unknown as { _opcodeMap: { opHandler: unknown }[] })._opcodeMap;
    const handlers = OPS.map((op) => table[op]!.opHandler);
    const unstarted: UnstartedFrame[] = [];
    const selfdestructs: string[] = [];
    let returns = 0;
    const undo = hookFrames(hooked, {
      unstarted: (f) => unstarted.push(f),
      selfdestruct: (from, to, value) => selfdestructs.push(`${from} ${to} ${value}`),
      returned: () => returns++,
    });
    expect(await runAll(hooked, block)).toEqual(stock);
    undo();
    expect(OPS.every((op, i) => table[op]!.opHandler === handlers[i])).toBe(true);

    expect(selfdestructs).toHaveLength(3);
    // No code of this block runs RETURN (the tracing chain's below does).
    expect(returns).toBe(0);
    const whys = unstarted.map((f) => `${f.op.toString(16)} ${f.why}`);
    expect(whys).toEqual(fork === 'homestead' ? ['f1 balance', 'f0 balance', 'f1 depth'] : ['f1 balance', 'f0 balance']);

    if (fork === 'osaka') {
      // On a fast-path VM too (inside a checkpoint it reverts).
      const fast = await chain.withCallVmAt(parent, async (vm) => {
        const off = hookFrames(vm, { unstarted: () => {}, selfdestruct: () => {}, returned: () => {} });
        await vm.stateManager.checkpoint();
        try {
          return (await runAll(vm, block, false)).results;
        } finally {
          await vm.stateManager.revert();
          off();
        }
      });
      expect(fast).toEqual(stock.results);
    }
  }, 60_000);
});

describe('frame hooks at Amsterdam (EIP-7928: @ethereumjs checks a create before its message, geth in the calling frame)', () => {
  it('a create short of value makes no frame (as geth); a create onto an address in use makes the collision frame', async () => {
    const [poor, twice] = [POOR_CREATOR, TWICE].map((a) => createAddressFromString(a));
    const seed = framesSeed('osaka').alloc as Record<string, { code: string }>;
    const run = async (hooked: boolean) => {
      const vm = await createVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Amsterdam }) });
      for (const a of [poor, twice]) {
        await vm.stateManager.putAccount(a, new Account());
        await vm.stateManager.putCode(a, hexToBytes(seed[a.toString()]!.code as `0x${string}`));
      }
      const seen: UnstartedFrame[] = [];
      const undo = hooked ? hookFrames(vm, { unstarted: (f) => seen.push(f), selfdestruct: () => {} }) : () => {};
      const out = [];
      for (const to of [poor, twice]) {
        const r = await vm.evm.runCall({ to, gasLimit: 1_000_000n });
        out.push([r.execResult.executionGasUsed, r.execResult.exceptionError?.error]);
      }
      undo();
      return { out, seen, root: bytesToHex(await vm.stateManager.getStateRoot()) };
    };
    const stock = await run(false);
    const hooked = await run(true);
    expect(hooked.out).toEqual(stock.out);
    expect(hooked.root).toBe(stock.root);
    expect(hooked.seen).toHaveLength(1);
    expect(hooked.seen[0]).toMatchObject({ op: 0xf5, why: 'collision', from: twice, value: 0n });
    expect(hooked.seen[0]!.gasUsed).toBe(hooked.seen[0]!.gas);
    expect(hooked.seen[0]!.gas).toBeGreaterThan(0n);
  });
});

describe('frame hooks on the tracing chain (calls of every kind, creations, reverts, RETURNs)', () => {
  it('change nothing a run gives', async () => {
    const chain = await chainFromSeed(parseSeed(traceSeed(), 'trace seed'));
    const parent = chain.blockByNumber(1n)!;
    const block = chain.blockByNumber(2n)!;
    const stock = await runAll(await chain.vmAt(parent), block);
    expect(stock.results.map((r: any) => r.gas)).toEqual(block.receipts.map((r) => r.gasUsed));
    const hooked = await chain.vmAt(parent);
    let returns = 0;
    let seen = 0;
    const undo = hookFrames(hooked, { unstarted: () => seen++, selfdestruct: () => seen++, returned: () => returns++ });
    expect(await runAll(hooked, block)).toEqual(stock);
    undo();
    expect(returns).toBeGreaterThan(10);
    expect(seen).toBe(0);
  }, 60_000);
});
