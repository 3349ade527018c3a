/** RollupChain in-process: hashes against starknet.js, the status lifecycle, time, fees and rollbacks. */
import { describe, expect, it } from 'vitest';
import { RollupError } from '../../../src/errors.js';
import { MAX_CATCH_UP_BLOCKS } from '../../../src/rollup/engine/chain.js';
import { balanceIn } from '../../../src/rollup/engine/feeToken.js';
import { GAS } from '../../../src/rollup/engine/fees.js';
import { invokeTransactionHash, shortString, stateCommitment } from '../../../src/rollup/engine/hash.js';
import type { SealedBlock } from '../../../src/rollup/engine/types.js';
import { invokeTransaction } from '../../../src/rollup/params.js';
import { ALICE, BOB, COUNTER, ETH_TOKEN, FRI_PRICE, GENESIS_TS, WEI_PRICE, increase, testChain } from '../fixture.js';
import { invokeV1, invokeV3, QUERY_V1, starknetJsHash } from '../txs.js';

const SN_MAIN = shortString('SN_MAIN');
const decode = (w: unknown) => invokeTransaction(w);
const sealed = (b: unknown) => b as SealedBlock;

describe('transaction hashes', () => {
  it('equal starknet.js hashes for v1, v3 and their query versions', () => {
    const wires = [
      invokeV1(ALICE, increase(1), 0),
      invokeV1(ALICE, increase(2), 7, { query: true, maxFee: 0n }),
      invokeV3(BOB, increase(3), 1),
      invokeV3(BOB, [...increase(4), ...increase(5)], 2, { query: true }),
    ];
    for (const w of wires) {
      expect('0x' + invokeTransactionHash(decode(w), SN_MAIN).toString(16)).toBe(starknetJsHash(w));
    }
    expect(wires[1]!.version).toBe(QUERY_V1);
  });

  it('differ with the chain id', () => {
    const tx = decode(invokeV1(ALICE, increase(1), 0));
    expect(invokeTransactionHash(tx, SN_MAIN)).not.toBe(invokeTransactionHash(tx, shortString('SN_SEPOLIA')));
  });
});

describe('blocks', () => {
  it('are deterministic: the same seed and clock give the same hashes', () => {
    const run = () => {
      const { chain, clock } = testChain();
      chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
      clock.advance(5_000);
      return chain.createBlock();
    };
    const [a, b] = [run(), run()];
    expect(a.hash).toBe(b.hash);
    expect(a.newRoot).toBe(b.newRoot);
  });

  it('commit the state: new_root changes with a transaction and equals the commitment of the state', () => {
    const { chain } = testChain();
    const genesis = chain.head();
    const empty = chain.createBlock();
    expect(empty.newRoot).toBe(genesis.newRoot);
    chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    const full = chain.createBlock();
    expect(full.newRoot).not.toBe(genesis.newRoot);
    expect(full.newRoot).toBe(stateCommitment(full.state));
    expect(full.parentHash).toBe(empty.hash);
    expect(full.number).toBe(2n);
  });

  it('take their timestamp from the clock, never going back', () => {
    const { chain, clock } = testChain();
    clock.advance(12_500);
    expect(chain.createBlock().timestamp).toBe(BigInt(GENESIS_TS + 12));
    chain.setTime(BigInt(GENESIS_TS + 1000));
    clock.advance(3_000);
    expect(chain.createBlock().timestamp).toBe(BigInt(GENESIS_TS + 1003));
    expect(() => chain.setTime(BigInt(GENESIS_TS))).toThrow(/before the latest block's timestamp/);
    expect(chain.increaseTime(60n).timestamp).toBe(BigInt(GENESIS_TS + 1063));
  });
});

describe('status lifecycle, on demand', () => {
  it('PENDING -> ACCEPTED_ON_L2 -> ACCEPTED_ON_L1 after the time delay, ancestors first', () => {
    const { chain, clock } = testChain({ l1Acceptance: { kind: 'time', delayMs: 60_000 } });
    const hash = chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    expect(chain.isPending(hash)).toBe(true);
    expect(chain.receipt(hash)).toBeUndefined();
    expect(chain.block({ tag: 'pending' })).not.toHaveProperty('hash');

    const b1 = chain.createBlock();
    expect(chain.receipt(hash)?.block.status).toBe('ACCEPTED_ON_L2');
    clock.advance(30_000);
    const b2 = chain.createBlock();
    clock.advance(29_999);
    chain.sync();
    expect([b1.status, b2.status]).toEqual(['ACCEPTED_ON_L2', 'ACCEPTED_ON_L2']);
    clock.advance(1);
    chain.sync();
    expect([b1.status, b2.status]).toEqual(['ACCEPTED_ON_L1', 'ACCEPTED_ON_L2']);
    clock.advance(30_000);
    expect(sealed(chain.block({ number: 2n })).status).toBe('ACCEPTED_ON_L1');
  });

  it('acceptOnL1 accepts a block and its ancestors, and only moves forward', () => {
    const { chain } = testChain();
    const [b1, b2, b3] = [chain.createBlock(), chain.createBlock(), chain.createBlock()];
    expect(chain.acceptOnL1({ number: 2n }).map((b) => b.number)).toEqual([1n, 2n]);
    expect([b1.status, b2.status, b3.status]).toEqual(['ACCEPTED_ON_L1', 'ACCEPTED_ON_L1', 'ACCEPTED_ON_L2']);
    expect(chain.acceptOnL1({ number: 1n })).toEqual([]);
    expect(() => chain.rejectBlock({ number: 2n })).toThrow(/ACCEPTED_ON_L1; only PENDING or ACCEPTED_ON_L2/);
    expect(() => chain.acceptOnL1({ number: 9n })).toThrow(RollupError);
  });

  it('rejectBlock rejects descendants and the pending block, rolls state back and reuses the number', () => {
    const { chain } = testChain();
    const t1 = chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    const b1 = chain.createBlock();
    const t2 = chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(2), 1)));
    const b2 = chain.createBlock();
    const t3 = chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(3), 2)));

    const rejected = chain.rejectBlock({ hash: b2.hash });
    expect(rejected.map((b) => b.number)).toEqual([2n, 3n]);
    expect(rejected.every((b) => b.status === 'REJECTED')).toBe(true);
    expect(chain.receipt(t2)?.block.status).toBe('REJECTED');
    expect(chain.receipt(t3)?.block.status).toBe('REJECTED');
    expect(chain.receipt(t1)?.block.status).toBe('ACCEPTED_ON_L2');
    expect(chain.head().hash).toBe(b1.hash);
    expect(chain.block({ hash: b2.hash })).toBe(b2);
    expect(chain.block({ number: 2n })).toBeUndefined();
    expect(chain.stateAt(chain.head()).get(BigInt(ALICE.address))?.nonce).toBe(1n);

    // nonce 1 is valid again, and the next block takes number 2
    chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(9), 1)));
    const again = chain.createBlock();
    expect(again.number).toBe(2n);
    expect(again.hash).not.toBe(b2.hash);
    expect(() => chain.acceptOnL1({ hash: b2.hash })).toThrow(/REJECTED; statuses only move forward/);
    expect(() => chain.rejectBlock({ hash: b2.hash })).toThrow(/REJECTED; only PENDING or ACCEPTED_ON_L2/);
  });

  it('rejecting the pending block seals it as REJECTED; a failed rejection changes nothing', () => {
    const { chain } = testChain();
    chain.acceptOnL1({ tag: 'latest' });
    const t = chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    expect(() => chain.rejectBlock({ number: 0n })).toThrow(/ACCEPTED_ON_L1/);
    expect(chain.isPending(t)).toBe(true);
    const [r] = chain.rejectBlock({ tag: 'pending' });
    expect(r?.number).toBe(1n);
    expect(chain.receipt(t)?.block.status).toBe('REJECTED');
    expect(chain.length).toBe(1);
  });
});

describe('status lifecycle, interval production', () => {
  it('seals the pending block at each interval of the clock, lazily and deterministically', () => {
    const { chain, clock } = testChain({ blockTimeMs: 2_000, l1Acceptance: { kind: 'time', delayMs: 5_000 } });
    const t = chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    clock.advance(1_999);
    expect(chain.head().number).toBe(0n);
    clock.advance(1);
    expect(chain.head().number).toBe(1n);
    expect(chain.receipt(t)?.block.status).toBe('ACCEPTED_ON_L2');
    expect(chain.head().timestamp).toBe(BigInt(GENESIS_TS + 2));
    clock.advance(6_000);
    // blocks at +4 s, +6 s, +8 s (empty); block 1 (sealed at +2 s) and 2 (+4 s) are 5 s old at +8 s... +9 s
    expect(chain.head().number).toBe(4n);
    expect(sealed(chain.block({ number: 1n })).status).toBe('ACCEPTED_ON_L1');
    expect(sealed(chain.block({ number: 2n })).status).toBe('ACCEPTED_ON_L2');
    clock.advance(1_000);
    expect(sealed(chain.block({ number: 2n })).status).toBe('ACCEPTED_ON_L1');
    expect(sealed(chain.block({ number: 3n })).status).toBe('ACCEPTED_ON_L2');
  });

  it('catches up at most MAX_CATCH_UP_BLOCKS (100) blocks after a long pause', () => {
    const { chain, clock } = testChain({ blockTimeMs: 10 });
    clock.advance(10 * (MAX_CATCH_UP_BLOCKS + 500));
    expect(chain.head().number).toBe(BigInt(MAX_CATCH_UP_BLOCKS));
    clock.advance(10);
    expect(chain.head().number).toBe(BigInt(MAX_CATCH_UP_BLOCKS + 1));
  });

  it('accepts on L1 after N blocks of the L1 network (rule "blocks")', () => {
    const { chain } = testChain({ l1Acceptance: { kind: 'blocks', network: 'l1', blocks: 3 } });
    chain.observeL1Head(10n);
    const b1 = chain.createBlock();
    chain.observeL1Head(12n);
    const b2 = chain.createBlock();
    chain.observeL1Head(12n);
    expect(b1.status).toBe('ACCEPTED_ON_L2');
    chain.observeL1Head(13n);
    expect([b1.status, b2.status]).toEqual(['ACCEPTED_ON_L1', 'ACCEPTED_ON_L2']);
    chain.observeL1Head(15n);
    expect(b2.status).toBe('ACCEPTED_ON_L1');
  });
});

describe('fees and transactions', () => {
  it('gas follows the documented model and the fee charged equals the estimate', () => {
    const { chain } = testChain();
    const wire = invokeV1(ALICE, increase(7), 0);
    const tx = decode(wire);
    const [estimate] = chain.estimateFee([tx], { tag: 'latest' });
    // calldata: [1, to, selector, 1, 7] = 5 felts; signature 2; derived outcome: 1 slot, 1 event (1 key, 1 data)
    const gas = GAS.base + 5n * GAS.calldataFelt + 2n * GAS.signatureFelt + GAS.storageWrite + GAS.event + 2n * GAS.eventFelt;
    expect(estimate).toEqual({ gasConsumed: gas, gasPrice: 30n, overallFee: gas * 30n, unit: 'WEI' });
    const before = balanceIn(chain.stateAt(chain.head()), BigInt(ETH_TOKEN), BigInt(ALICE.address));
    const hash = chain.addInvokeTransaction(tx);
    chain.createBlock();
    const { tx: executed } = chain.receipt(hash)!;
    expect(executed.actualFee).toBe(gas * WEI_PRICE);
    expect(balanceIn(chain.stateAt(chain.head()), BigInt(ETH_TOKEN), BigInt(ALICE.address))).toBe(before - gas * WEI_PRICE);
    expect(chain.stateAt(chain.head()).get(BigInt(COUNTER))!.storage.size).toBe(2);
  });

  it('v3 pays in fri; sequential estimates need the next nonce', () => {
    const { chain } = testChain();
    const txs = [decode(invokeV3(BOB, increase(1), 0, { query: true })), decode(invokeV3(BOB, increase(2), 1, { query: true }))];
    const estimates = chain.estimateFee(txs, { tag: 'latest' });
    expect(estimates.map((e) => e.gasPrice)).toEqual([FRI_PRICE / 10n ** 9n, FRI_PRICE / 10n ** 9n]);
    expect(() => chain.estimateFee([txs[1]!], { tag: 'latest' })).toThrow(
      expect.objectContaining({ code: 40, data: expect.objectContaining({ revert_error: 'Invalid transaction nonce. Expected: 0x0, got: 0x1' }) }),
    );
    expect(chain.stateAt(chain.head()).get(BigInt(BOB.address))!.nonce).toBe(0n);
  });

  it('refuses a bad signature, a wrong nonce, a query version and too low a max fee, changing nothing', () => {
    const { chain } = testChain();
    const good = invokeV1(ALICE, increase(1), 0);
    const cases: [unknown, number][] = [
      [{ ...good, signature: [good.signature[1], good.signature[0]] }, 55],
      [invokeV1(ALICE, increase(1), 3), 52],
      [invokeV1(ALICE, increase(1), 0, { query: true }), 61],
      [invokeV1(ALICE, increase(1), 0, { maxFee: 1000n }), 53],
      [invokeV1(ALICE, [{ to: '0x123', entrypoint: 'x', calldata: [] }], 0), 40],
      [invokeV1({ address: '0x999', privateKey: '0x1' }, increase(1), 0), 20],
    ];
    for (const [wire, code] of cases) expect(() => chain.addInvokeTransaction(decode(wire)), String(code)).toThrow(expect.objectContaining({ code }));
    expect(chain.pending().transactions).toEqual([]);
    expect(chain.stateAt(chain.pending() as never)).toBe(chain.stateAt(chain.head()));
  });
});
