/** The rollup's test controls in-process: snapshots and restart, mint, balances, gas prices, abort. */
import { getPublicKey, getStarkKey, Signature, verify } from '@scure/starknet';
import { describe, expect, it } from 'vitest';
import { DevgateError, InvalidArgument } from '../../../src/errors.js';
import { CHARGEABLE_ACCOUNT, RollupControls } from '../../../src/rollup/engine/controls.js';
import { balanceIn } from '../../../src/rollup/engine/feeToken.js';
import { invokeTransactionHash, shortString, stateCommitment } from '../../../src/rollup/engine/hash.js';
import type { InvokeTransaction } from '../../../src/rollup/engine/types.js';
import { invokeTransaction } from '../../../src/rollup/params.js';
import { ALICE, BOB, COUNTER, ETH_TOKEN, FRI_PRICE, GENESIS_TS, WEI_PRICE, increase, testChain } from '../fixture.js';
import { invokeV1, invokeV3, selector } from '../txs.js';

const decode = (w: unknown) => invokeTransaction(w);
const STRK_TOKEN = 0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938dn;
const withStrk = {
  contracts: [
    { address: ETH_TOKEN, classHash: '0x1' },
    { address: '0x' + STRK_TOKEN.toString(16), classHash: '0x1' },
    { address: COUNTER, classHash: '0x2' },
  ],
};

function setup(overrides: Record<string, unknown> = {}) {
  const { chain, clock } = testChain(overrides);
  const controls = RollupControls.attach(chain, []);
  return { chain, clock, controls, snapshots: controls.snapshots };
}

describe('snapshots', () => {
  it('revert restores blocks, statuses, state, pending transactions and time, and forgets what came after', () => {
    const { chain, clock, snapshots } = setup();
    const pendingTx = chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    const head = chain.head();
    const time = chain.now();
    const id = snapshots.take();
    expect(id).toBe(0n);

    const sealed = chain.createBlock(); // holds the pending tx
    const later = chain.addInvokeTransaction(decode(invokeV3(BOB, increase(2), 0)));
    const second = chain.createBlock();
    chain.acceptOnL1({ hash: second.hash });
    chain.setTime(BigInt(GENESIS_TS) + 10_000n);
    expect(head.status).toBe('ACCEPTED_ON_L1');
    expect(chain.length).toBe(3);

    expect(snapshots.revert(id)).toEqual([sealed, second]);
    expect(chain.length).toBe(1);
    expect(chain.head()).toBe(head);
    expect(chain.block({ hash: sealed.hash })).toBeUndefined();
    expect(chain.block({ hash: second.hash })).toBeUndefined();
    expect(chain.block({ number: 1n })).toBeUndefined();
    expect(chain.transaction(later)).toBeUndefined();
    expect(chain.isPending(pendingTx)).toBe(true);
    expect(chain.receipt(pendingTx)).toBeUndefined();
    expect(chain.pending().transactions.map((t) => t.hash)).toEqual([pendingTx]);
    expect(chain.now()).toBe(time);
    // BOB's nonce is 0 again: the same transaction is taken once more
    expect(chain.addInvokeTransaction(decode(invokeV3(BOB, increase(2), 0)))).toBe(later);

    // a number reused after the revert answers the new block
    clock.advance(3_000);
    const reused = chain.createBlock();
    expect(reused.number).toBe(1n);
    expect(reused.hash).not.toBe(sealed.hash);
    expect(chain.block({ number: 1n })).toBe(reused);
    expect(chain.receipt(pendingTx)!.block).toBe(reused);
  });

  it('deletes the snapshot reverted to and every later one; an unknown id answers false and changes nothing', () => {
    const { chain, snapshots } = setup();
    const a = snapshots.take();
    chain.createBlock();
    const b = snapshots.take();
    chain.createBlock();
    snapshots.take();
    expect(snapshots.size).toBe(3);
    expect(snapshots.revert(b)).toHaveLength(1);
    expect(snapshots.size).toBe(1);
    expect(chain.length).toBe(2);
    expect(snapshots.revert(b)).toBe(false);
    expect(snapshots.revert(99n)).toBe(false);
    expect(chain.length).toBe(2);
    expect(snapshots.take()).toBe(3n); // ids are not reused
    expect(snapshots.revert(a)).toHaveLength(1);
    expect(snapshots.size).toBe(0);
    expect(chain.length).toBe(1);
  });

  it('revert puts a rejected block back on the chain with its status; rejected blocks made after it are forgotten', () => {
    const { chain, snapshots } = setup();
    const b1 = chain.createBlock();
    const id = snapshots.take();
    chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    chain.rejectBlock({ hash: b1.hash }); // rejects b1 and the sealed pending block
    expect(b1.status).toBe('REJECTED');
    const rejectedPending = chain.block({ number: 1n });
    expect(rejectedPending).toBeUndefined();
    snapshots.revert(id);
    expect(b1.status).toBe('ACCEPTED_ON_L2');
    expect(chain.block({ number: 1n })).toBe(b1);
    expect(chain.pending().transactions).toEqual([]);
  });

  it('revert undoes acceptances and rejections of blocks it keeps, together', () => {
    const { chain, clock, snapshots } = setup();
    const [b1, b2, b3, b4] = [chain.createBlock(), chain.createBlock(), chain.createBlock(), chain.createBlock()];
    chain.acceptOnL1({ hash: b1.hash });
    const id = snapshots.take();
    chain.acceptOnL1({ hash: b2.hash });
    chain.rejectBlock({ hash: b3.hash });
    clock.advance(1_000); // else the new block 3 would be b3 again, hash and all
    const b3b = chain.createBlock();
    chain.acceptOnL1({ hash: b3b.hash });
    expect([b1, b2, b3, b4, b3b].map((b) => b.status)).toEqual(['ACCEPTED_ON_L1', 'ACCEPTED_ON_L1', 'REJECTED', 'REJECTED', 'ACCEPTED_ON_L1']);
    expect(snapshots.revert(id)).toEqual([b3b]);
    expect([b1, b2, b3, b4].map((b) => b.status)).toEqual(['ACCEPTED_ON_L1', 'ACCEPTED_ON_L2', 'ACCEPTED_ON_L2', 'ACCEPTED_ON_L2']);
    expect(chain.block({ number: 3n })).toBe(b3);
    expect(chain.head()).toBe(b4);
  });

  it('L1 acceptance after a revert: statuses and L1 anchors come back, then the rules apply again', () => {
    const byBlocks = setup({ l1Acceptance: { kind: 'blocks', network: 'mainnet', blocks: 5 } });
    byBlocks.chain.observeL1Head(10n);
    const b1 = byBlocks.chain.createBlock();
    const id = byBlocks.snapshots.take();
    byBlocks.chain.observeL1Head(15n);
    expect(b1.status).toBe('ACCEPTED_ON_L1');
    byBlocks.snapshots.revert(id);
    expect(b1).toMatchObject({ status: 'ACCEPTED_ON_L2', l1Anchor: 10n });
    byBlocks.chain.observeL1Head(16n); // the L1 head seen is not chain contents: the rule applies to it at once
    expect(b1.status).toBe('ACCEPTED_ON_L1');

    const byTime = setup({ l1Acceptance: { kind: 'time', delayMs: 60_000 } });
    const t1 = byTime.chain.createBlock();
    const id2 = byTime.snapshots.take();
    byTime.clock.advance(61_000);
    expect(byTime.chain.head().status).toBe('ACCEPTED_ON_L1');
    byTime.snapshots.revert(id2);
    expect(t1.status).toBe('ACCEPTED_ON_L2'); // as at the snapshot, until the next read runs the clock's work
    expect(byTime.chain.head().status).toBe('ACCEPTED_ON_L1');
  });

  it('interval sealing keeps its schedule after a revert (no burst of the intervals the revert went back over)', () => {
    const { chain, clock, snapshots } = setup({ blockTimeMs: 1_000 });
    const id = snapshots.take();
    clock.advance(5_000);
    expect(chain.head().number).toBe(5n);
    snapshots.revert(id);
    expect(chain.head().number).toBe(0n);
    clock.advance(1_000);
    expect(chain.head().number).toBe(1n);
  });

  it('restart goes back to the chain as served and forgets every snapshot', () => {
    const { chain, controls, snapshots } = setup(withStrk);
    const genesis = chain.head();
    const root = stateCommitment(chain.stateAt(chain.pending()));
    snapshots.take();
    controls.mint(0x64b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691n, 5n, 'FRI');
    chain.createBlock();
    controls.setGasPrice({ wei: 2n * WEI_PRICE }, true);
    expect(snapshots.restart()).toHaveLength(2);
    expect(snapshots.size).toBe(0);
    expect(chain.head()).toBe(genesis);
    expect(chain.pending().transactions).toEqual([]);
    expect(stateCommitment(chain.stateAt(chain.pending()))).toBe(root);
    expect(chain.createBlock().gasPrices).toEqual({ wei: WEI_PRICE, fri: FRI_PRICE });
  });

  it('cost: snapshot and revert copy no index and hash nothing (timed on 300 blocks)', () => {
    const { chain, snapshots } = setup();
    for (let i = 0; i < 300; i++) chain.createBlock();
    let spent = 0;
    const rounds = 50;
    for (let i = 0; i < rounds; i++) {
      let t = performance.now();
      const id = snapshots.take();
      spent += performance.now() - t;
      chain.createBlock();
      t = performance.now();
      snapshots.revert(id);
      spent += performance.now() - t;
    }
    console.log(`rollup snapshot + revert on ${chain.length} blocks: ${(spent / rounds).toFixed(3)} ms`);
    expect(chain.length).toBe(301);
    expect(spent / rounds).toBeLessThan(20); // generous for a busy machine; measured 0.02-0.08 ms
  });
});

describe('mint', () => {
  const alice = BigInt(ALICE.address);

  it('is a signed INVOKE v3 of the chargeable account in the pending block; the next block commits the credit', () => {
    const { chain, controls } = setup(withStrk);
    const before = controls.balance(alice, 'FRI');
    const { newBalance, txHash } = controls.mint(alice, 10n ** 18n, 'FRI');
    expect(newBalance).toBe(before + 10n ** 18n);
    expect(controls.balance(alice, 'FRI')).toBe(before); // latest: not sealed yet
    expect(controls.balance(alice, 'FRI', { tag: 'pending' })).toBe(newBalance);

    const { tx } = chain.transaction(txHash)!;
    const invoke = tx.tx as InvokeTransaction;
    expect(invoke).toMatchObject({ version: 3, senderAddress: CHARGEABLE_ACCOUNT.address, nonce: 0n });
    expect(invoke.calldata).toEqual([1n, STRK_TOKEN, BigInt(selector('permissioned_mint')), 3n, alice, 10n ** 18n, 0n]);
    expect(invokeTransactionHash(invoke, shortString('SN_MAIN'))).toBe(txHash);
    const payer = chain.stateAt(chain.pending()).get(CHARGEABLE_ACCOUNT.address)!;
    const [r, s] = invoke.signature as [bigint, bigint];
    expect(verify(new Signature(r, s), '0x' + txHash.toString(16), getPublicKey('0x' + CHARGEABLE_ACCOUNT.privateKey.toString(16)))).toBe(true);
    expect(payer.publicKey).toBe(BigInt(getStarkKey('0x' + CHARGEABLE_ACCOUNT.privateKey.toString(16))));
    expect(payer.publicKey).toBe(0x4c37ab4f0994879337bfd4ead0800776db57da382b8ed8efaa478c5d3b942a4n); // starknet-devnet's
    expect(tx.outcome.events).toEqual([{ fromAddress: STRK_TOKEN, keys: [BigInt(selector('Transfer')), 0n, alice], data: [10n ** 18n, 0n] }]);
    expect(tx.actualFee).toBeGreaterThan(0n);
    expect(balanceIn(chain.stateAt(chain.pending()), STRK_TOKEN, CHARGEABLE_ACCOUNT.address)).toBe((1n << 128n) - 1n - tx.actualFee);

    const block = chain.createBlock();
    expect(block.newRoot).toBe(stateCommitment(block.state));
    expect(controls.balance(alice, 'FRI')).toBe(newBalance);
    expect(chain.receipt(txHash)!.block).toBe(block);
    // the next mint uses the next nonce; WEI mints ETH
    const eth = controls.mint(alice, 7n, 'WEI');
    expect(chain.transaction(eth.txHash)!.tx.tx.nonce).toBe(1n);
    expect(eth.newBalance).toBe(controls.balance(alice, 'WEI') + 7n);
  });

  it('gives the same hashes on the same seed and clock', () => {
    const run = () => {
      const { chain, controls } = setup(withStrk);
      const { txHash } = controls.mint(alice, 123n, 'FRI');
      return [txHash, chain.createBlock().hash];
    };
    expect(run()).toEqual(run());
  });

  it('refuses an address without a contract, an undeployed token and a balance of 2^128, changing nothing', () => {
    const { chain, controls } = setup(); // the test seed deploys no STRK token
    const state = chain.stateAt(chain.pending());
    expect(() => controls.mint(0x1234n, 1n, 'WEI')).toThrow(DevgateError);
    expect(() => controls.mint(0x1234n, 1n, 'WEI')).toThrow(/no contract at 0x1234/);
    expect(() => controls.mint(alice, 1n, 'FRI')).toThrow(/STRK fee token 0x4718.* is not deployed/);
    expect(() => controls.mint(alice, 1n << 128n, 'WEI')).toThrow(InvalidArgument);
    expect(chain.stateAt(chain.pending())).toBe(state);
    expect(chain.pending().transactions).toEqual([]);
  });
});

describe('gas prices and abort', () => {
  it('setGasPrice applies from the block after the pending one; generate_block seals now', () => {
    const { chain, controls } = setup();
    chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    const report = controls.setGasPrice({ wei: 2n * WEI_PRICE });
    expect(report.l1).toEqual({ wei: 2n * WEI_PRICE, fri: FRI_PRICE });
    expect(chain.pending().gasPrices.wei).toBe(WEI_PRICE);
    const charged = chain.createBlock();
    expect(charged.gasPrices.wei).toBe(WEI_PRICE); // its transaction was charged at that price
    expect(chain.createBlock().gasPrices.wei).toBe(2n * WEI_PRICE);
    controls.setGasPrice({ fri: 3n * FRI_PRICE }, true);
    expect(chain.head().gasPrices.fri).toBe(FRI_PRICE);
    expect(chain.pending().gasPrices.fri).toBe(3n * FRI_PRICE);
  });

  it('setGasPrice refuses prices it cannot model, changing nothing', () => {
    const { chain, controls } = setup();
    expect(() => controls.setGasPrice({ wei: WEI_PRICE + 1n })).toThrow(/whole number of gwei/);
    expect(() => controls.setGasPrice({ dataWei: 5n * WEI_PRICE })).toThrow(/per network/);
    expect(controls.setGasPrice({ dataWei: WEI_PRICE }).data.wei).toBe(WEI_PRICE); // the current value is taken
    chain.createBlock();
    expect(chain.createBlock().gasPrices).toEqual({ wei: WEI_PRICE, fri: FRI_PRICE });
  });

  it('abortBlocks rejects from a block on and answers the hashes newest first', () => {
    const { chain, controls } = setup();
    const [b1, b2] = [chain.createBlock(), chain.createBlock()];
    expect(controls.abortBlocks({ number: 1n }).map((b) => b.hash)).toEqual([b2.hash, b1.hash]);
    expect(chain.length).toBe(1);
    expect(chain.block({ hash: b1.hash })).toMatchObject({ status: 'REJECTED' });
  });
});
