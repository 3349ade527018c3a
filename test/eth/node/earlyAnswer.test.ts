/**
 * A node command answers as soon as its outcome is known (issue 26: the suite's sends waited for the whole block): an
 * automined send answers its hash once the block has run and taken it, `evm_mine`'s one block once its header and
 * transactions are settled, a revert once its snapshot is found; the rest (the seal: flush, roots, build, index,
 * events) finishes under the writer while `unfinished()` holds the network's later requests. Events keep their order,
 * after the answer. With a data directory (a store) nothing answers before the store has the block. A seal that
 * fails after the answer leaves head as it was and the send out of the pool, as a failed automined block does.
 */
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chainFromSeed } from '../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../src/eth/engine/chain/chain.js';
import { BlockDraft } from '../../../src/eth/engine/mining/draft.js';
import { EthNode } from '../../../src/eth/node/node.js';
import { standaloneNode } from '../../../src/eth/node/standalone.js';
import type { ChainStore } from '../../../src/eth/engine/persist/dataDir/ethStore.js';
import { parseSeed } from '../../../src/seed/load.js';
import { devSeed } from '../../../src/seed/dev.js';

const SINK = '0x00000000000000000000000000000000000000c1';

let chain: EthChain;

beforeEach(async () => {
  chain = await chainFromSeed(parseSeed(devSeed(), 'dev'));
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function transfer(node: EthNode, from = 0, nonceDelta = 0n) {
  const dev = chain.devAccounts()[from]!;
  const nonce = ((await chain.getAccount(dev.address, chain.head()))?.nonce ?? 0n) + nonceDelta;
  const base = node.head().header.baseFeePerGas ?? 0n;
  return createFeeMarket1559Tx(
    { chainId: chain.chainId, nonce, to: SINK, value: 1n, gasLimit: 21_000n, maxFeePerGas: base * 2n + 1n, maxPriorityFeePerGas: 1n },
    { common: chain.common },
  ).sign(dev.privateKey);
}

/** What happened, in order: the answer and the chain's events. */
function timeline(node: EthNode): string[] {
  const seen: string[] = [];
  node.chain.events.on('txPooled', () => seen.push('txPooled'));
  node.chain.events.on('blockSealed', () => seen.push('blockSealed'));
  return seen;
}

describe('an early answer', () => {
  it('an automined send answers before its block is sealed; events follow in their order; the barrier falls at the end', async () => {
    const node = standaloneNode(chain);
    const seen = timeline(node);
    const before = node.head().number;
    const tx = await transfer(node);
    const sent = await node.send(tx);
    seen.push('answer');
    expect(sent.hash).toEqual(tx.hash());
    // Answered with the block still being sealed: head has not moved, and the barrier is up.
    expect(node.head().number).toBe(before);
    const barrier = node.unfinished();
    expect(barrier).toBeDefined();
    await barrier;
    expect(node.unfinished()).toBeUndefined();
    expect(seen).toEqual(['answer', 'txPooled', 'blockSealed']);
    expect(node.head().number).toBe(before + 1n);
    expect(node.transaction(tx.hash())?.kind).toBe('mined');
  });

  it('evm_mine of one block and a revert answer before their work is done', async () => {
    const node = standaloneNode(chain);
    const snap = await node.snapshot();
    const before = node.head().number;
    await node.mineOneEarly();
    expect(node.head().number).toBe(before);
    await node.unfinished();
    expect(node.head().number).toBe(before + 1n);
    expect(await node.revert(snap)).toBe(true);
    expect(node.unfinished()).toBeDefined();
    await node.unfinished();
    expect(node.head().number).toBe(before);
    // An unknown snapshot answers false at the end, as before (nothing to finish).
    expect(await node.revert(99n)).toBe(false);
    expect(node.unfinished()).toBeUndefined();
  });

  it('a refused send answers its refusal as before, and leaves no barrier', async () => {
    const node = standaloneNode(chain);
    const tx = await transfer(node);
    await node.send(tx);
    await node.unfinished();
    await expect(node.send(tx)).rejects.toThrow('already known');
    await expect(node.send(await transfer(node, 0, -1n))).rejects.toThrow('nonce too low');
    expect(node.unfinished()).toBeUndefined();
    // A nonce gap: queued, answered after the block (which does not take it), as before.
    const gapped = await transfer(node, 1, 1n);
    const before = node.head().number;
    expect((await node.send(gapped)).hash).toEqual(gapped.hash());
    expect(node.head().number).toBe(before + 1n);
    expect(node.transaction(gapped.hash())?.kind).toBe('pending');
  });

  it('eth_sendRawTransactionSync (awaitBlock) answers with the block on the chain', async () => {
    const node = standaloneNode(chain);
    const before = node.head().number;
    const sent = await node.send(await transfer(node), undefined, { awaitBlock: true });
    expect(sent.block?.number).toBe(before + 1n);
    expect(node.head().number).toBe(before + 1n);
    expect(node.unfinished()).toBeUndefined();
  });

  it('a seal that fails after the answer leaves head as it was and takes the send out of the pool', async () => {
    const node = standaloneNode(chain);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(BlockDraft.prototype, 'seal').mockRejectedValueOnce(new Error('seal broke'));
    const seen = timeline(node);
    const head = node.head();
    const tx = await transfer(node);
    expect((await node.send(tx)).hash).toEqual(tx.hash());
    await node.unfinished();
    expect(node.head().hash).toEqual(head.hash);
    expect(node.transaction(tx.hash())).toBeUndefined();
    expect(node.pendingTransactions()).toHaveLength(0);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('seal broke'));
    expect(seen).toEqual(['txPooled']);
    // The next send mines as ever.
    const next = await transfer(node);
    await node.send(next);
    await node.unfinished();
    expect(node.transaction(next.hash())?.kind).toBe('mined');
  });

  it('with a data directory (a store) a send answers only once the store has its block', async () => {
    const base = standaloneNode(chain);
    const sealed: bigint[] = [];
    const store: ChainStore = {
      sealBlock: async (mined) => {
        sealed.push(mined.number);
      },
      commit: async () => {},
      removed: () => {},
    };
    const node = new EthNode({
      chain,
      miner: base.miner,
      snapshots: base.snapshots,
      impersonation: base.impersonation,
      pool: base.pool,
      admission: base.admission,
      store,
    });
    const before = node.head().number;
    await node.send(await transfer(node));
    expect(sealed).toEqual([before + 1n]);
    expect(node.head().number).toBe(before + 1n);
    expect(node.unfinished()).toBeUndefined();
    await node.mineOneEarly();
    expect(node.head().number).toBe(before + 2n);
  });
});
