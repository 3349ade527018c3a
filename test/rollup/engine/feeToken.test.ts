/** The modelled fee tokens in the engine: OZ storage addresses, reverts, and a dump keeping both (issue 27). */
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { RollupChain } from '../../../src/rollup/engine/chain.js';
import { formatReceipt } from '../../../src/rollup/format.js';
import { balanceIn, balanceKey, totalSupplyIn } from '../../../src/rollup/engine/feeToken.js';
import { decodeRollupSnapshot, encodeRollupSnapshot } from '../../../src/rollup/snapshot.js';
import { invokeTransaction } from '../../../src/rollup/params.js';
import { ManualClock } from '../../../src/clock.js';
import { ALICE, BOB, ETH_TOKEN, START_MS, testChain } from '../fixture.js';
import { invokeV1 } from '../txs.js';

const ETH = BigInt(ETH_TOKEN);
const transfer = (to: string, amount: bigint) => [{ to: ETH_TOKEN, entrypoint: 'transfer', calldata: [to, amount & ((1n << 128n) - 1n), amount >> 128n] }];

describe('fee tokens', () => {
  it("keep balances at OZ's storage address, as starknet.js computes it", () => {
    const { chain } = testChain();
    const key = BigInt(hash.computePedersenHash(hash.starknetKeccak('ERC20_balances'), ALICE.address)) % ((1n << 251n) - 256n);
    expect(balanceKey(BigInt(ALICE.address))).toBe(key);
    const storage = chain.stateAt(chain.head()).get(ETH)!.storage;
    expect(storage.get(key)).toBe(10n ** 21n);
    expect(storage.get(key + 1n) ?? 0n).toBe(0n);
    expect(totalSupplyIn(chain.stateAt(chain.head()), ETH)).toBe(3n * 10n ** 21n);
  });

  it('revert a transfer beyond the balance: fee charged, nonce moved, nothing else; a dump keeps balances and the revert', () => {
    const { chain } = testChain();
    const state0 = chain.stateAt(chain.head());
    const [alice0, bob0] = [balanceIn(state0, ETH, BigInt(ALICE.address)), balanceIn(state0, ETH, BigInt(BOB.address))];
    const ok = chain.addInvokeTransaction(invokeTransaction(invokeV1(ALICE, transfer(BOB.address, 5n), 0)));
    const bad = chain.addInvokeTransaction(invokeTransaction(invokeV1(ALICE, transfer(BOB.address, 10n ** 22n), 1)));
    const block = chain.createBlock();
    const [okTx, badTx] = [chain.receipt(ok)!.tx, chain.receipt(bad)!.tx];
    expect(okTx.revertReason).toBeUndefined();
    expect(badTx.revertReason).toContain("'ERC20: insufficient balance'");
    expect(badTx.outcome).toEqual({ events: [], messages: [], storageWrites: [] });
    expect(formatReceipt(badTx, block)).toMatchObject({ execution_status: 'REVERTED', revert_reason: badTx.revertReason, events: [] });
    expect(formatReceipt(okTx, block)).not.toHaveProperty('execution_status');
    const state = chain.stateAt(block);
    expect(balanceIn(state, ETH, BigInt(BOB.address))).toBe(bob0 + 5n);
    expect(balanceIn(state, ETH, BigInt(ALICE.address))).toBe(alice0 - 5n - okTx.actualFee - badTx.actualFee);
    expect(state.get(BigInt(ALICE.address))!.nonce).toBe(2n);

    const key = new Uint8Array(32);
    const restored = RollupChain.restore(chain.config, new ManualClock(START_MS), decodeRollupSnapshot(encodeRollupSnapshot(chain.parts(), key), key));
    expect(balanceIn(restored.stateAt(restored.head()), ETH, BigInt(BOB.address))).toBe(bob0 + 5n);
    expect(restored.receipt(bad)!.tx.revertReason).toBe(badTx.revertReason);
    expect(restored.head().newRoot).toBe(block.newRoot);
  });
});
