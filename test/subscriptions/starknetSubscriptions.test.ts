/**
 * The rollup engine's events and the Starknet subscription store over them, in-process: what each chain change
 * emits (in order), the 1,024-blocks-back limit, the per-connection limit, held catch-up, and that a closed store
 * leaves no listener behind.
 */
import { describe, expect, it } from 'vitest';
import { RollupError } from '../../src/errors.js';
import type { RollupEventName } from '../../src/rollup/engine/events.js';
import { StarknetSubscriptions, MAX_BLOCKS_BACK, keysMatch } from '../../src/subscriptions/starknet/starknetSubscriptions.js';
import { ALICE, BOB, ETH_TOKEN, increase, testChain } from '../rollup/fixture.js';
import { invokeV1 } from '../rollup/txs.js';
import { invokeTransaction } from '../../src/rollup/params.js';

const EVENTS: RollupEventName[] = ['blockSealed', 'txAdded', 'statusChanged', 'blocksRejected'];

function recorder(chain: ReturnType<typeof testChain>['chain']) {
  const seen: string[] = [];
  for (const name of EVENTS) {
    chain.events.on(name, (e: any) =>
      seen.push(`${name}:${Array.isArray(e) ? e.map((b: any) => `${b.number}/${b.status}`).join(',') : 'number' in e ? `${e.number}` : 'tx'}`),
    );
  }
  return seen;
}
const send = (chain: ReturnType<typeof testChain>['chain'], nonce: number) =>
  chain.addInvokeTransaction(invokeTransaction(invokeV1(ALICE, increase(1), nonce)));

describe('rollup engine events', () => {
  it('emit tx added, block sealed, L1 acceptance and rejection in the order they happen', () => {
    const { chain } = testChain();
    const seen = recorder(chain);
    send(chain, 0);
    chain.createBlock();
    chain.createBlock();
    chain.acceptOnL1({ number: 1n });
    send(chain, 1);
    chain.rejectBlock({ number: 2n }); // seals the pending block (3) first, then rejects 2 and 3
    expect(seen).toEqual([
      'txAdded:tx',
      'blockSealed:1',
      'blockSealed:2',
      'statusChanged:1/ACCEPTED_ON_L1',
      'txAdded:tx',
      'blockSealed:3',
      'blocksRejected:2/REJECTED,3/REJECTED',
    ]);
  });

  it('interval sealing and time-based L1 acceptance emit from sync(), one event per block', () => {
    const { chain, clock } = testChain({ blockTimeMs: 1000, l1Acceptance: { kind: 'time', delayMs: 1500 } });
    const seen = recorder(chain);
    clock.advance(2500); // blocks sealed at +1000 and +2000; the first is on L1 at +2500
    chain.sync();
    expect(seen).toEqual(['blockSealed:1', 'blockSealed:2', 'statusChanged:1/ACCEPTED_ON_L1']);
  });
});

describe('StarknetSubscriptions', () => {
  it('refuses to start more than 1,024 blocks back (68), and an unknown or rejected block (24)', () => {
    const { chain } = testChain();
    for (let i = 0; i < MAX_BLOCKS_BACK + 1; i++) chain.createBlock();
    const subs = new StarknetSubscriptions(chain, () => {});
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof RollupError ? [e.code, e.message] : e;
      }
      return 'no error';
    };
    expect(err(() => subs.subscribeNewHeads('starknet', { number: 0n }))).toEqual([68, 'Cannot go back more than 1024 blocks']);
    expect(err(() => subs.subscribeEvents('starknet', { keys: [] }, { number: 0n }))).toEqual([68, 'Cannot go back more than 1024 blocks']);
    expect(subs.subscribeNewHeads('starknet', { number: 1n })).toBe('1');
    const rejected = chain.rejectBlock({ tag: 'latest' })[0]!;
    expect(err(() => subs.subscribeNewHeads('starknet', { hash: rejected.hash }))).toEqual([24, 'Block not found']);
    expect(err(() => subs.subscribeNewHeads('starknet', { number: 5000n }))).toEqual([24, 'Block not found']);
    subs.close();
  });

  it('holds catch-up and live notifications until flush(), then sends them in chain order', () => {
    const { chain } = testChain();
    chain.createBlock();
    const pushed: string[] = [];
    const subs = new StarknetSubscriptions(chain, (t) => pushed.push(t));
    subs.subscribeNewHeads('starknet', { number: 0n });
    chain.createBlock();
    expect(pushed).toEqual([]);
    subs.flush();
    expect(pushed.map((t) => JSON.parse(t).params.result.block_number)).toEqual([0, 1, 2]);
    chain.createBlock();
    expect(JSON.parse(pushed.at(-1)!).params.result.block_number).toBe(3);
    subs.close();
  });

  it('has at most N subscriptions per connection (-32005), and a closed store leaves no listener', () => {
    const { chain } = testChain();
    const before = EVENTS.map((e) => chain.events.count(e));
    const subs = new StarknetSubscriptions(chain, () => {}, 2);
    subs.subscribeNewHeads('starknet', undefined);
    subs.subscribePendingTransactions('rollup', false, undefined);
    expect(() => subs.subscribeTransactionStatus('starknet', 1n)).toThrow(/too many subscriptions on this connection \(at most 2\)/);
    expect(subs.unsubscribe('1')).toBe(true);
    expect(subs.subscribeTransactionStatus('starknet', 1n)).toBe('3');
    subs.close();
    expect(EVENTS.map((e) => chain.events.count(e))).toEqual(before);
  });

  it('matches keys per position, an empty position taking any value', () => {
    expect(keysMatch([], [1n])).toBe(true);
    expect(keysMatch([[1n, 2n]], [2n, 9n])).toBe(true);
    expect(keysMatch([[], [9n]], [2n, 9n])).toBe(true);
    expect(keysMatch([[], [8n]], [2n, 9n])).toBe(false);
    expect(keysMatch([[], []], [2n])).toBe(true);
  });

  it('says REVERTED with the failure_reason for a reverted transaction, as starknet_getTransactionStatus does (issue 25)', () => {
    const { chain } = testChain();
    const transfer = (amount: bigint) => [{ to: ETH_TOKEN, entrypoint: 'transfer', calldata: [BOB.address, amount, 0n] }];
    const ok = chain.addInvokeTransaction(invokeTransaction(invokeV1(ALICE, transfer(5n), 0)));
    const bad = chain.addInvokeTransaction(invokeTransaction(invokeV1(ALICE, transfer((1n << 128n) - 1n), 1)));
    const reason = chain.transaction(bad)!.tx.revertReason!;
    expect(reason).toContain('ERC20: insufficient balance');
    const pushed: any[] = [];
    const subs = new StarknetSubscriptions(chain, (t) => pushed.push(JSON.parse(t).params.result));
    subs.subscribeTransactionStatus('starknet', bad);
    subs.subscribeTransactionStatus('starknet', ok);
    subs.flush();
    const block = chain.createBlock();
    chain.acceptOnL1({ number: block.number });
    const reverted = { execution_status: 'REVERTED', failure_reason: reason };
    expect(pushed).toEqual([
      { transaction_hash: `0x${bad.toString(16)}`, status: { finality_status: 'ACCEPTED_ON_L2', ...reverted } },
      { transaction_hash: `0x${ok.toString(16)}`, status: { finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' } },
      { transaction_hash: `0x${ok.toString(16)}`, status: { finality_status: 'ACCEPTED_ON_L1', execution_status: 'SUCCEEDED' } },
      { transaction_hash: `0x${bad.toString(16)}`, status: { finality_status: 'ACCEPTED_ON_L1', ...reverted } },
    ]);
    subs.close();
  });

  it('hands a large block out by work, yielding to the event loop between slices, in order and in full (issue 25)', async () => {
    const { chain } = testChain();
    // 16 transactions, so the block's 16,000+ notifications take several 3 ms slices even on a fast machine (with 4 a
    // quiet CI machine made 2,552 of 4,000 in the first slice).
    for (let nonce = 0; nonce < 16; nonce++) chain.addInvokeTransaction(invokeTransaction(invokeV1(ALICE, increase(1), nonce)));
    const texts: string[] = [];
    const subs = new StarknetSubscriptions(chain, (t) => texts.push(t));
    for (let i = 0; i < 1000; i++) subs.subscribeEvents('starknet', { keys: [] }, undefined);
    subs.flush();
    texts.length = 0;
    const block = chain.createBlock();
    const events = block.transactions.reduce((n, tx) => n + tx.outcome.events.length, 0);
    expect(events).toBeGreaterThanOrEqual(16);
    // The emitter's turn makes what fits in the event loop's shared slice (TURN_SLICE_MS, src/turnSlice.ts), not all
    // 1,000 x events notifications at once (~60-80 ms of work on a loaded machine, ~15 ms on a quiet fast one).
    const inTurn = texts.length;
    console.log(`${inTurn} of ${1000 * events} notifications in the emitter's turn`);
    expect(inTurn).toBeGreaterThan(0);
    expect(inTurn).toBeLessThan((1000 * events) / 2);
    for (let i = 0; i < 16_000 && texts.length < 1000 * events; i++) await new Promise((r) => setImmediate(r));
    expect(texts.length).toBe(1000 * events);
    // Per subscription, the block's events in order.
    const first = texts.filter((t) => JSON.parse(t).params.subscription_id === '1').map((t) => JSON.parse(t).params.result.transaction_hash);
    expect(first).toEqual(block.transactions.flatMap((tx) => tx.outcome.events.map(() => `0x${tx.hash.toString(16)}`)));
    subs.close();
  });
});
