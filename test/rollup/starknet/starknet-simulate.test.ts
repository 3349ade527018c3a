/**
 * starknet_simulateTransactions and starknet_estimateMessageFee on the engine in-process: traces and
 * estimates per flag, nothing changed by a simulation, the message fee by the documented rule.
 */
import { describe, expect, it } from 'vitest';
import { GAS, l1HandlerGas } from '../../../src/rollup/engine/fees.js';
import { rollupMethods } from '../../../src/rollup/methods/index.js';
import type { RollupChain } from '../../../src/rollup/engine/chain.js';
import { COUNTER_CLASS, ERC20_CLASS, SEED_CLASSES } from '../classes.js';
import { ALICE, COUNTER, ETH_TOKEN, FRI_PRICE, SEQUENCER, WEI_PRICE, increase, testChain } from '../fixture.js';
import { hex, invokeV3, selector } from '../txs.js';

const methods = rollupMethods('starknet');
const ask = async (chain: RollupChain, method: string, params: unknown, rpcVersion?: '0.9'): Promise<any> =>
  methods.execute({ chain, networkName: 'rollup-test', rpcVersion }, { id: 1, method, params });
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const seeded = () =>
  testChain({
    classes: SEED_CLASSES,
    contracts: [
      { address: ETH_TOKEN, classHash: ERC20_CLASS.classHash },
      { address: STRK, classHash: ERC20_CLASS.classHash },
      { address: COUNTER, classHash: COUNTER_CLASS.classHash },
      { address: '0x1234', classHash: '0x99' },
    ],
  }).chain;

describe('starknet_simulateTransactions', () => {
  it('traces an invoke with validate, execute (one nested call per call) and fee transfer, and changes nothing', async () => {
    const chain = seeded();
    const rootBefore = chain.head().newRoot;
    const tx = invokeV3(ALICE, increase(2), 0);
    const [sim] = (await ask(chain, 'starknet_simulateTransactions', { block_id: 'latest', transactions: [tx], simulation_flags: [] })).result;
    const t = sim.transaction_trace;
    expect(t.type).toBe('INVOKE');
    expect(t.validate_invocation).toMatchObject({
      contract_address: ALICE.address,
      entry_point_selector: selector('__validate__'),
      calldata: tx.calldata,
      is_reverted: false,
    });
    expect(t.execute_invocation).toMatchObject({
      contract_address: ALICE.address,
      entry_point_selector: selector('__execute__'),
      call_type: 'CALL',
      entry_point_type: 'EXTERNAL',
    });
    expect(t.execute_invocation.calls).toHaveLength(1);
    expect(t.execute_invocation.calls[0]).toMatchObject({
      contract_address: COUNTER,
      entry_point_selector: selector('increase'),
      calldata: ['0x2'],
      caller_address: ALICE.address,
      class_hash: COUNTER_CLASS.classHash,
      events: [{ order: 0, keys: [selector('increase')], data: ['0x2'] }],
    });
    const fee = BigInt(sim.fee_estimation.overall_fee);
    expect(t.fee_transfer_invocation).toMatchObject({
      contract_address: STRK,
      entry_point_selector: selector('transfer'),
      calldata: [SEQUENCER, hex(fee), '0x0'],
    });
    expect(t.state_diff.nonces).toEqual([{ contract_address: ALICE.address, nonce: '0x1' }]);
    expect(t.execution_resources).toEqual({ l1_gas: Number(fee / FRI_PRICE), l1_data_gas: 0, l2_gas: 0 });
    expect(sim.fee_estimation).toMatchObject({ unit: 'FRI', l1_gas_price: hex(FRI_PRICE) });
    expect(chain.head().newRoot).toBe(rootBefore);
    expect((await ask(chain, 'starknet_getNonce', ['pending', ALICE.address])).result).toBe('0x0');
  });

  it('leaves out validation with SKIP_VALIDATE and the fee transfer with SKIP_FEE_CHARGE', async () => {
    const chain = seeded();
    const tx = { ...invokeV3(ALICE, increase(2), 0), signature: ['0x1', '0x2'] };
    const bad = await ask(chain, 'starknet_simulateTransactions', { block_id: 'latest', transactions: [tx], simulation_flags: [] });
    expect(bad.error).toMatchObject({ code: 40, data: { transaction_index: 0 } });
    const [sim] = (await ask(chain, 'starknet_simulateTransactions', ['latest', [tx], ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE']])).result;
    expect(sim.transaction_trace.validate_invocation).toBeUndefined();
    expect(sim.transaction_trace.fee_transfer_invocation).toBeUndefined();
    // bounds below the fee fail only when the fee is charged
    const low = invokeV3(ALICE, increase(2), 0, { maxAmount: 1n });
    expect((await ask(chain, 'starknet_simulateTransactions', ['latest', [low], []])).error.code).toBe(40);
    expect((await ask(chain, 'starknet_simulateTransactions', ['latest', [low], ['SKIP_FEE_CHARGE']])).result).toHaveLength(1);
  });

  it("runs transactions in sequence: the second sees the first one's nonce", async () => {
    const chain = seeded();
    const sims = (await ask(chain, 'starknet_simulateTransactions', ['latest', [invokeV3(ALICE, increase(1), 0), invokeV3(ALICE, increase(1), 1)], []])).result;
    expect(sims).toHaveLength(2);
    expect(sims[1].transaction_trace.state_diff.nonces).toEqual([{ contract_address: ALICE.address, nonce: '0x2' }]);
    expect((await ask(chain, 'starknet_simulateTransactions', ['latest', [invokeV3(ALICE, increase(1), 1)], []])).error.code).toBe(40);
    expect((await ask(chain, 'starknet_simulateTransactions', [{ block_number: 9 }, [], []])).error.code).toBe(24);
  });
});

describe('starknet_estimateMessageFee', () => {
  const message = (to: string, selector_: string, payload: string[] = ['0x1', '0x2']) => ({
    from_address: '0xae0ee0a63a2ce6baeeffe56e7714fb4efe48d419',
    to_address: to,
    entry_point_selector: selector_,
    payload,
  });

  it('prices the L1 handler call in WEI at the L1 gas price by the documented rule', async () => {
    const chain = seeded();
    const r = (await ask(chain, 'starknet_estimateMessageFee', { message: message('0x1234', selector('handle')), block_id: 'latest' })).result;
    const gas = l1HandlerGas(2);
    expect(gas).toBe(GAS.base + 3n * 32n + 612n + 256n + 4n * 32n);
    expect(r).toMatchObject({
      l1_gas_consumed: hex(gas),
      l1_gas_price: hex(WEI_PRICE),
      overall_fee: hex(gas * WEI_PRICE),
      unit: 'WEI',
      l2_gas_consumed: '0x0',
    });
  });

  it('answers 20 for no contract, 40 for a selector that is not an L1 handler of a declared class, -32602 for a bad sender', async () => {
    const chain = seeded();
    expect((await ask(chain, 'starknet_estimateMessageFee', [message('0x5678', '0x1'), 'latest'])).error).toEqual({ code: 20, message: 'Contract not found' });
    const notHandler = await ask(chain, 'starknet_estimateMessageFee', [message(COUNTER, selector('increase')), 'latest']);
    expect(notHandler.error).toMatchObject({ code: 40, data: { revert_error: expect.stringContaining('is not an L1_HANDLER') } });
    expect((await ask(chain, 'starknet_estimateMessageFee', [{ ...message(COUNTER, '0x1'), from_address: '0x' + '1'.repeat(50) }, 'latest'])).error.code).toBe(
      -32602,
    );
  });
});

describe('starknet_traceTransaction / starknet_traceBlockTransactions', () => {
  it('trace sealed and pending transactions as a simulation of them traces them, replaying the block', async () => {
    const chain = seeded();
    const tx1 = invokeV3(ALICE, increase(2), 0);
    const tx2 = invokeV3(ALICE, increase(3), 1);
    const [sim1, sim2] = (await ask(chain, 'starknet_simulateTransactions', ['latest', [tx1, tx2], []])).result;
    const h1 = (await ask(chain, 'starknet_addInvokeTransaction', [tx1])).result.transaction_hash;
    const pendingTrace = (await ask(chain, 'starknet_traceTransaction', [h1])).result;
    expect(pendingTrace).toEqual(sim1.transaction_trace);
    const h2 = (await ask(chain, 'starknet_addInvokeTransaction', [tx2])).result.transaction_hash;
    const block = chain.createBlock();
    expect((await ask(chain, 'starknet_traceTransaction', [h2])).result).toEqual(sim2.transaction_trace);
    const all = (await ask(chain, 'starknet_traceBlockTransactions', [{ block_hash: hex(block.hash) }])).result;
    expect(all).toEqual([
      { transaction_hash: h1, trace_root: sim1.transaction_trace },
      { transaction_hash: h2, trace_root: sim2.transaction_trace },
    ]);
    // the replay ends on the block's own state
    expect(all[1].trace_root.state_diff.nonces).toEqual([{ contract_address: ALICE.address, nonce: '0x2' }]);
    expect((await ask(chain, 'starknet_traceTransaction', ['0x1234'])).error.code).toBe(29);
    expect((await ask(chain, 'starknet_traceBlockTransactions', [{ block_number: 9 }])).error.code).toBe(24);
  });
});
