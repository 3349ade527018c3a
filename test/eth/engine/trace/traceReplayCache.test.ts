/**
 * The replay cache of tracing (src/eth/engine/trace/replayCache.ts): tracing a transaction starts from the state kept
 * after the transactions before it, and answers exactly what a trace that runs the whole block prefix again on a
 * stock VM answers, in any order of requests, under every tracer; blocks that leave the chain (a revert, a reorg)
 * are forgotten, and the blocks mined in their place are traced right.
 */
import { nodeOf } from '../../../support/node.js';
import { createFeeMarket1559Tx, type TypedTransaction } from '@ethereumjs/tx';
import { Account, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { keccak256 as viemKeccak } from 'viem';
import { OverlayState } from '../../../../src/eth/engine/state/overlayState.js';
import type { RootReads } from '../../../../src/eth/engine/state/rootReads.js';
import { describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { KEPT_PER_BLOCK, ReplayCache, replayCacheOf } from '../../../../src/eth/engine/trace/replayCache.js';
import { traceTransaction, traceTxOn, type TraceRequest } from '../../../../src/eth/engine/trace/run.js';
import type { TracerSpec } from '../../../../src/eth/engine/trace/types.js';
import { formatTrace } from '../../../../src/eth/format/trace.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { ACCOUNT0, encode, TOKEN, traceSeed } from './traceSeed.js';

const SPECS: TracerSpec[] = [
  { kind: 'structLogger', opts: { disableStack: false, disableStorage: false, enableMemory: true, enableReturnData: true, limit: 0 } },
  { kind: 'callTracer', opts: { onlyTopCall: false, withLog: true } },
  { kind: 'prestateTracer', opts: { diffMode: true, disableCode: false, disableStorage: false, includeEmpty: false } },
];
const req = (spec: TracerSpec): TraceRequest => ({ spec, timeoutMs: 10_000 });

/** Each transaction of `block` traced on a stock VM at the parent's state, every one after its prefix replayed in full. */
async function stockTraces(chain: EthChain, block: MinedBlock, spec: TracerSpec): Promise<string[]> {
  const vm = await chain.vmAt(chain.blockByNumber(block.number - 1n)!);
  const out: string[] = [];
  for (let i = 0; i < block.txHashes.length; i++) out.push(JSON.stringify(formatTrace(await traceTxOn(vm, block, i, req(spec)))));
  return out;
}

const cachedTrace = async (chain: EthChain, block: MinedBlock, i: number, spec: TracerSpec) =>
  JSON.stringify(formatTrace(await traceTransaction(chain, block, i, req(spec))));

describe.each(['osaka', 'shanghai'])('traces with kept states at %s', (fork) => {
  it('are those of a full replay, in any order, under every tracer', async () => {
    const chain = await chainFromSeed(parseSeed(traceSeed(fork), 'trace seed'));
    const block = chain.blockByNumber(2n)!;
    const n = block.txHashes.length;
    const cache = replayCacheOf(chain);
    for (const spec of SPECS) {
      const stock = await stockTraces(chain, block, spec);
      // Backwards first (each trace finds only later states kept), then forwards, then in a scattered order.
      const orders = [[...Array(n).keys()].reverse(), [...Array(n).keys()], [...Array(n).keys()].map((i) => (i * 7) % n)];
      for (const order of orders) for (const i of order) expect(await cachedTrace(chain, block, i, spec), `${spec.kind} tx ${i}`).toBe(stock[i]);
    }
    // A state after every transaction but the last (block 2 has fewer than KEPT_PER_BLOCK transactions).
    expect(n).toBeLessThan(KEPT_PER_BLOCK);
    expect(cache.size()).toMatchObject({ blocks: 1, states: n - 1 });
  }, 120_000);
});

describe('kept states and a chain that changes', () => {
  /** A signed token transfer of `amount` from dev account 0 at `nonce`. */
  const transfer = (chain: EthChain, nonce: bigint, to: string, amount: bigint): TypedTransaction =>
    createFeeMarket1559Tx(
      {
        chainId: chain.chainId,
        nonce,
        gasLimit: 100_000n,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 1n,
        to: createAddressFromString(TOKEN),
        data: hexToBytes(encode('transfer', [to, amount])),
      },
      { common: chain.common },
    ).sign(chain.devAccounts()[0]!.privateKey);

  async function mineTransfers(chain: EthChain, to: string, amounts: bigint[]): Promise<MinedBlock> {
    const dev = chain.devAccounts()[0]!.address;
    const nonce = (await chain.getAccount(dev, chain.head()))!.nonce;
    for (const [k, amount] of amounts.entries()) await chain.addPending(transfer(chain, nonce + BigInt(k), to, amount));
    return nodeOf(chain).mineBlock();
  }

  it('forgets the blocks a revert removes, and traces the blocks mined in their place right', async () => {
    const chain = await chainFromSeed(parseSeed(traceSeed(), 'trace seed'));
    const cache = replayCacheOf(chain);
    const spec = SPECS[0]!;
    const atHead = await nodeOf(chain).snapshot();
    const first = await mineTransfers(chain, '0x00000000000000000000000000000000000000a1', [1n, 2n, 3n, 4n]);
    for (const i of [3, 1, 2]) await cachedTrace(chain, first, i, spec);
    expect(cache.size().blocks).toBe(1);
    expect(await nodeOf(chain).revert(atHead)).toBe(true);
    expect(cache.size()).toEqual({ blocks: 0, states: 0, entries: 0 });
    // The same senders and nonces, other amounts: a block at the same height on another state.
    const second = await mineTransfers(chain, '0x00000000000000000000000000000000000000a2', [5n, 6n, 7n, 8n]);
    const stock = await stockTraces(chain, second, spec);
    for (const i of [3, 1, 2, 0]) expect(await cachedTrace(chain, second, i, spec)).toBe(stock[i]);
    // What the second block's transactions do: storage of its own recipient, not the first block's.
    expect(stock[3]).toContain('a2');
    expect(stock[3]).not.toContain('00000000000000000000000000000000000000a1');
  }, 60_000);

  it('keeps at most its budget of entries, least recently used blocks first', async () => {
    const chain = await chainFromSeed(parseSeed(traceSeed(), 'trace seed'));
    const block = chain.blockByNumber(2n)!;
    const parentRoot = chain.blockByNumber(1n)!.header.stateRoot;
    const small = new ReplayCache(10);
    const kept = small.of(block, parentRoot);
    const overlay = (k: number) => ({
      accounts: new Map(Array.from({ length: k }, (_, i) => [`a${i}`, null] as const)),
      storage: new Map(),
      cleared: new Set<string>(),
      codes: new Map(),
    });
    kept.keep(1, () => overlay(4));
    kept.keep(2, () => overlay(4));
    expect(small.size()).toEqual({ blocks: 1, states: 2, entries: 8 });
    expect(kept.nearest(5)?.count).toBe(2);
    expect(kept.nearest(1)?.count).toBe(1);
    expect(kept.nearest(0)).toBeUndefined();
    // Another block's states push the first block out once the budget is passed.
    const other = small.of(chain.blockByNumber(1n)!, chain.blockByNumber(0n)!.header.stateRoot);
    other.keep(1, () => overlay(4));
    expect(small.size()).toEqual({ blocks: 1, states: 1, entries: 4 });
    expect(kept.nearest(5)).toBeUndefined();
  });
});

const keccak = (b: Uint8Array) => viemKeccak(b, 'bytes');

describe('OverlayState overlay and restore', () => {
  it('carries accounts, slots, cleared storage, deleted accounts and code to another state at the same root, undone by revert', async () => {
    const chain = await chainFromSeed(parseSeed(traceSeed(), 'trace seed'));
    const reads = () => chain['states'].rootReads().readsAt(chain.blockByNumber(2n)!) as RootReads;
    const token = createAddressFromString(TOKEN);
    const fresh = createAddressFromString('0x00000000000000000000000000000000000000f1');
    const gone = createAddressFromString('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    const slot = (n: number) => setLengthLeft(Uint8Array.of(n), 32);
    const a = new OverlayState(keccak, reads());
    await a.checkpoint();
    // balances[ACCOUNT0] of the Token (its mapping is at slot 0): not zero.
    const held = hexToBytes(viemKeccak(`0x${ACCOUNT0.slice(2).padStart(64, '0')}${'0'.repeat(64)}`));
    const before = await a.getStorage(token, held);
    await a.clearStorage(token);
    await a.putStorage(token, slot(5), Uint8Array.of(7));
    await a.putAccount(fresh, new Account(3n, 9n));
    await a.putCode(fresh, Uint8Array.of(0x60, 0x00));
    await a.deleteAccount(gone);
    const overlay = a.overlay();
    await a.revert();

    const b = new OverlayState(keccak, reads());
    await b.checkpoint();
    b.restore(overlay);
    expect(await b.getStorage(token, held)).toEqual(new Uint8Array());
    expect(await b.getStorage(token, slot(5))).toEqual(Uint8Array.of(7));
    expect((await b.getAccount(fresh))?.nonce).toBe(3n);
    expect(await b.getCode(fresh)).toEqual(Uint8Array.of(0x60, 0x00));
    expect(await b.getAccount(gone)).toBeUndefined();
    // Restoring twice, or outside a checkpoint, is refused; revert brings the root's own state back.
    expect(() => b.restore(overlay)).toThrow(/no writes/);
    await b.revert();
    expect(() => b.restore(overlay)).toThrow(/open checkpoint/);
    expect(before.length).toBeGreaterThan(0);
    expect(await b.getStorage(token, held)).toEqual(before);
    expect(await b.getAccount(fresh)).toBeUndefined();
    expect((await b.getAccount(gone))?.balance).toBeGreaterThan(0n);
  });
});
