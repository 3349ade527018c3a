/**
 * A whole-gateway state load (anvil_loadState, gw.loadState, --state) on a rollup network does what devnet_load does:
 * it forgets the network's snapshots (docs/rollup.md "Dump and load": a load forgets every snapshot) and reports the blocks
 * that leave as on a revert and the dump's blocks as sealed, so subscribers follow the chain they now read.
 */
import { describe, expect, it } from 'vitest';
import { decodeRollupDump, encodeRollupDump, loadRollupDump } from '../../../src/rollup/persist/rollupDump.js';
import { RollupControls } from '../../../src/rollup/engine/controls.js';
import type { SealedBlock } from '../../../src/rollup/engine/types.js';
import { invokeTransaction } from '../../../src/rollup/params.js';
import { ALICE, increase, testChain } from '../fixture.js';
import { invokeV1 } from '../txs.js';

describe('whole-gateway state load of a rollup network', () => {
  it('forgets snapshots and reports the blocks that leave and come', () => {
    const { chain } = testChain({});
    const controls = RollupControls.attach(chain, []);
    chain.addInvokeTransaction(invokeTransaction(invokeV1(ALICE, increase(1), 0)));
    const dumpedHead = chain.createBlock();
    const bytes = encodeRollupDump(chain);
    chain.addInvokeTransaction(invokeTransaction(invokeV1(ALICE, increase(2), 1)));
    const leaving = chain.createBlock();
    controls.snapshots.take();
    expect(controls.snapshots.size).toBe(1);

    const reverted: SealedBlock[][] = [];
    const sealed: SealedBlock[] = [];
    chain.events.on('blocksReverted', (blocks) => reverted.push([...blocks]));
    chain.events.on('blockSealed', (b) => sealed.push(b));
    loadRollupDump(chain, decodeRollupDump(bytes, chain, 'rollup-test'));

    expect(chain.head().hash).toBe(dumpedHead.hash);
    expect(controls.snapshots.size).toBe(0);
    expect(reverted.map((bs) => bs.map((b) => b.hash))).toEqual([[leaving.hash]]);
    expect(sealed).toEqual([]); // the dump's blocks are all shared with the chain here
  });
});
