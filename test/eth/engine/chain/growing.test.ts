/**
 * A chain that grows and is cut back, on the shipped sepolia chain: the serial writer, events, truncation
 * (every index and state read forgets what was cut), head edits through stateRootOf, and mining failures.
 */
import { nodeOf } from '../../../support/node.js';
import { createFeeMarket1559Tx, type TypedTransaction } from '@ethereumjs/tx';
import { Account, bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { SerialWriter } from '../../../../src/eth/node/writer.js';
import { loadSeedFile } from '../../../../src/seed/load.js';

const TOKEN = createAddressFromString('0x5fbdb2315678afecb367f032d93f642f64180aa3');
const SINK = createAddressFromString('0x00000000000000000000000000000000000000b7');
let chain: EthChain;

beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
});

/** A signed transfer of `value` wei from dev account `i` to SINK at the account's next nonce (or `nonce`). */
async function transfer(i: number, value: bigint, nonce?: bigint): Promise<TypedTransaction> {
  const dev = chain.devAccounts()[i]!;
  const pending = await nodeOf(chain).pendingBlock();
  const n = nonce ?? (await chain.getAccount(dev.address, chain.head()))!.nonce;
  const baseFee = pending.header.baseFeePerGas!;
  return createFeeMarket1559Tx(
    { chainId: chain.chainId, nonce: n, gasLimit: 21000n, maxFeePerGas: baseFee * 3n, maxPriorityFeePerGas: 1n, to: SINK, value },
    { common: chain.common },
  ).sign(dev.privateKey);
}

describe('the serial writer', () => {
  it('runs jobs one at a time in order, and a failed job does not stop the queue', async () => {
    const writer = new SerialWriter();
    const log: string[] = [];
    const job =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([writer.run(job('a')), writer.run(job('b', true)), writer.run(job('c'))]);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

describe('a chain that grows and is cut back', () => {
  it('emits blockSealed per block in order, and blocksRemoved on truncate; every index forgets the cut blocks', async () => {
    // The seed's pending transactions go into the first mined block.
    await nodeOf(chain).mineBlock();
    const base = chain.head();
    const sinkBefore = (await chain.getAccount(SINK, base))?.balance ?? 0n;
    const sealed: MinedBlock[] = [];
    const removed: MinedBlock[][] = [];
    const offSealed = chain.events.on('blockSealed', (b) => sealed.push(b));
    const offRemoved = chain.events.on('blocksRemoved', (b) => removed.push([...b]));
    const atBase = await nodeOf(chain).snapshot();
    const txs: TypedTransaction[] = [];
    for (let i = 0; i < 3; i++) {
      const tx = await transfer(1, 1000n);
      txs.push(tx);
      await chain.addPending(tx);
      await nodeOf(chain).mineBlock();
    }
    expect(sealed.map((b) => b.number)).toEqual([base.number + 1n, base.number + 2n, base.number + 3n]);
    expect((await chain.getAccount(SINK, chain.head()))!.balance).toBe(sinkBefore + 3000n);
    for (const [i, tx] of txs.entries()) expect(chain.transaction(tx.hash())).toMatchObject({ kind: 'mined', block: sealed[i] });
    for (const b of sealed) expect(chain.blockByHash(b.hash)).toBe(b);
    const readsBefore = await chain.readStateAt(chain.head());

    expect(await nodeOf(chain).revert(atBase)).toBe(true);
    expect(removed).toEqual([sealed]);
    expect(chain.head()).toBe(base);
    for (const b of sealed) expect(chain.blockByHash(b.hash)).toBeUndefined();
    for (const tx of txs) expect(chain.transaction(tx.hash())).toBeUndefined();
    expect(chain.blockByNumber(base.number + 1n)).toBeUndefined();
    expect((await chain.getAccount(SINK, chain.head()))?.balance ?? 0n).toBe(sinkBefore);
    expect(await chain.readStateAt(chain.head())).not.toBe(readsBefore);
    expect((await nodeOf(chain).pendingBlock()).number).toBe(base.number + 1n);

    // A block number reused after the cut answers the new block.
    const again = await nodeOf(chain).mineBlock({ timestamp: base.header.timestamp + 100n });
    expect(again.number).toBe(base.number + 1n);
    expect(bytesToHex(again.hash)).not.toBe(bytesToHex(sealed[0]!.hash));
    expect(chain.blockByNumber(base.number + 1n)).toBe(again);
    expect(chain.blockByHash(again.hash)).toBe(again);
    // The same transaction can be mined again after the cut, and is found in its new block.
    await chain.addPending(txs[0]!);
    const remined = await nodeOf(chain).mineBlock();
    expect(chain.transaction(txs[0]!.hash())).toMatchObject({ kind: 'mined', block: remined, index: 0 });
    offSealed();
    offRemoved();
    await expect(chain.truncate(chain.head().number + 1n)).rejects.toThrow(/cannot cut the chain back/);
  });

  it('head edits are seen at once through stateRootOf, by calls and reads, and the next block commits them', async () => {
    const head = chain.head();
    const headerRoot = head.header.stateRoot;
    const callBefore = await chain.withCallVmAt(head, async (vm) => (await vm.stateManager.getAccount(SINK))?.balance);
    await nodeOf(chain).editState(async (state) => state.putAccount(SINK, new Account(0n, 123_456n)));
    expect(chain.head()).toBe(head);
    expect(bytesToHex(chain.stateRootOf(head))).not.toBe(bytesToHex(headerRoot));
    expect((await chain.getAccount(SINK, head))!.balance).toBe(123_456n);
    expect((await (await chain.readStateAt(head)).getAccount(SINK))?.balance).toBe(123_456n);
    expect(await chain.withCallVmAt(head, async (vm) => (await vm.stateManager.getAccount(SINK))?.balance)).toBe(123_456n);
    expect(await chain.withVmAt(head, async (vm) => (await vm.stateManager.getAccount(SINK))?.balance)).toBe(123_456n);
    expect(callBefore).not.toBe(123_456n);
    // The token is untouched by the edit.
    expect((await chain.getCode(TOKEN, head)).length).toBeGreaterThan(0);

    const next = await nodeOf(chain).mineBlock();
    expect((await chain.getAccount(SINK, next))!.balance).toBe(123_456n);
    expect(bytesToHex(chain.stateRootOf(next))).toBe(bytesToHex(next.header.stateRoot));
    // The block before keeps its header's root: a read at it does not see the edit.
    expect(bytesToHex(chain.stateRootOf(head))).toBe(bytesToHex(headerRoot));
    expect((await chain.getAccount(SINK, head))!.balance).toBe(callBefore);
  });

  it('a revert to a block with unmined edits restores them, and a failed edit changes nothing', async () => {
    await nodeOf(chain).editState(async (state) => state.putAccount(SINK, new Account(0n, 7n)));
    const head = chain.head();
    const edited = chain.stateRootOf(head);
    await nodeOf(chain).mineBlock();
    await chain.truncate(head.number, edited);
    expect((await chain.getAccount(SINK, chain.head()))!.balance).toBe(7n);
    await expect(
      nodeOf(chain).editState(async (state) => {
        await state.putAccount(SINK, new Account(0n, 8n));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect((await chain.getAccount(SINK, chain.head()))!.balance).toBe(7n);
    expect(bytesToHex(chain.stateRootOf(chain.head()))).toBe(bytesToHex(edited));
  });

  it('mining reports the transactions a block did not take, with the reason', async () => {
    const gap = await transfer(2, 1n, (await chain.getAccount(chain.devAccounts()[2]!.address, chain.head()))!.nonce + 5n);
    await chain.addPending(gap);
    const result = (await nodeOf(chain).mine(1n))[0]!;
    expect(result.block.block.transactions).toHaveLength(0);
    expect(result.skipped.map((s) => bytesToHex(s.pending.tx.hash()))).toEqual([bytesToHex(gap.hash())]);
    expect(result.skipped[0]!.error).toMatch(/nonce/);
    expect(await nodeOf(chain).dropTransactions([gap.hash()])).toHaveLength(1);
    expect(chain.pendingTransactions()).toHaveLength(0);
  });
});
