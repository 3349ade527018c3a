/**
 * A block with transactions is sealed in stages with the event loop turning between them (#25: the seal of a block of
 * 2,000 logs was one turn of up to ~50 ms with every network waiting), and the block is the one sealed in one piece:
 * the same header (so the same hash, roots, bloom and gas). Turns are counted with setImmediate (test/support/turns.ts),
 * no clock read, so the check holds on a loaded machine.
 */
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { Block } from '@ethereumjs/block';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { openPendingDraft } from '../../../../src/eth/engine/mining/pending.js';
import type { BlockDraft } from '../../../../src/eth/engine/mining/draft.js';
import { loadSeedFile } from '../../../../src/seed/load.js';
import { turnsDuring } from '../../../support/turns.js';

let chain: EthChain;

beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
});

/** Init code of a loop of n LOG0s (bench/hostileTools.ts logLoop). */
const logLoop = (n: number) => hexToBytes(`0x61${n.toString(16).padStart(4, '0')}5b60006000a0600190038060035700`);

/** A draft of the next block on a copy of head's state, holding one transaction of `logs` LOG0s. */
async function draftWith(logs: number): Promise<BlockDraft> {
  const draft = await openPendingDraft(chain);
  const dev = chain.devAccounts()[7]!;
  const nonce = (await chain.getAccount(dev.address, chain.head()))?.nonce ?? 0n;
  const fee = (draft.context.header.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n;
  const tx = createFeeMarket1559Tx(
    { chainId: chain.common.chainId(), nonce, gasLimit: 2_000_000n, maxFeePerGas: fee, maxPriorityFeePerGas: 1_000_000_000n, data: logLoop(logs) },
    { common: draft.vm.common },
  ).sign(dev.privateKey);
  await draft.add(tx, dev.address);
  return draft;
}

describe('the seal of a block with transactions', () => {
  it('a block of 2,000 logs: the event loop turns while it is sealed, and its header is the one build() makes in one piece', async () => {
    const staged = await draftWith(2000);
    const { value: mined, turns } = await turnsDuring(() => staged.seal());
    expect(mined.receipts[0]!.logs).toHaveLength(2000);
    // In one piece the seal is a turn or two around its awaits; in stages a turn before each.
    expect(turns).toBeGreaterThanOrEqual(4);

    // The same transaction in another draft, sealed by @ethereumjs's build() alone (what the seal did before).
    const whole = await draftWith(2000);
    const { block } = (await (whole as unknown as { builder: { build(): Promise<{ block: Block }> } }).builder.build()) as { block: Block };
    expect(bytesToHex(mined.block.header.serialize())).toBe(bytesToHex(block.header.serialize()));
    expect(mined.block.header.receiptTrie).toEqual(block.header.receiptTrie);
    expect(mined.block.header.stateRoot).toEqual(block.header.stateRoot);
  }, 60_000);

  it('an empty block is sealed as before, with no stages', async () => {
    const draft = await openPendingDraft(chain);
    const { value: mined, turns } = await turnsDuring(() => draft.seal());
    expect(mined.block.transactions).toHaveLength(0);
    expect(turns).toBeLessThan(4);
  });
});
